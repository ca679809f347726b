"""Batches on a Dask cluster, reduced where they run (FAST-03).

`run_batch_dask` cuts the trials into chunks, runs each chunk as a task with
`hardpoint.run_batch(..., keep="summary")` on the workers, and adds the
chunks' counts up on the workers too, pairwise, so what crosses the network
is one small table of counts a chunk (a few KB), never the trials. Trial t
rolls the dice of (seed, t) wherever it runs, and the counts are whole
numbers, so the result is the one process's, outcome for outcome, whatever
the chunk size, the number of workers, or a worker lost on the way (its
tasks run again elsewhere: they are pure).

>>> import hardpoint
>>> from distributed import Client, LocalCluster
>>> with LocalCluster(n_workers=2, threads_per_worker=1, processes=False) as cluster, Client(cluster) as client:
...     s = hardpoint.load_scenario("builtin:cw_tohit_example")
...     spread = hardpoint.run_batch_dask(s, 20_000, seed=1, client=client, chunk=5_000)
...     one = hardpoint.run_batch(s, 20_000, seed=1, keep="summary")
>>> [o.to_dict() for o in spread.outcomes] == [o.to_dict() for o in one.outcomes]
True

Needs `pip install 'hardpoint[dask]'`.
"""
from __future__ import annotations

import time
from typing import Any

from .errors import ScenarioError
from .results import BatchResult

__all__ = ["run_batch_dask", "local_client", "merge_summaries"]

#: trials a task runs when no chunk is given: about a quarter second of the compiled core, so a lost worker costs
#: little and the tasks spread over the workers
DEFAULT_CHUNK = 1_000_000


def merge_summaries(scenario: Any, a: BatchResult, b: BatchResult) -> BatchResult:
    """Two counted chunks of one batch as one: the rule set adds their counts up and rebuilds the outcomes, so the
    result is the one run of all their trials gives (FAST-03)."""
    from .ruleset import merger, ruleset_of

    if (a.scenario, a.ruleset, a.seed) != (b.scenario, b.ruleset, b.seed):
        raise ScenarioError("the chunks are not of one batch (another scenario or seed)", field="outcomes",
                            value=f"{a.scenario!r} seed {a.seed} and {b.scenario!r} seed {b.seed}", rule="FAST-03")
    first, second = (a, b) if a.first_trial <= b.first_trial else (b, a)
    if first.first_trial + first.trials != second.first_trial:
        raise ScenarioError("the chunks are not consecutive trials", field="first_trial",
                            value=f"{first.first_trial}+{first.trials} and {second.first_trial}", rule="FAST-03")
    merged = merger(ruleset_of(scenario))(scenario, [first, second])
    merged.backend = first.backend if a.backend == b.backend else f"{first.backend}+{second.backend}"
    return merged


def _chunk(scenario: Any, seed: int, first: int, count: int, backend: str | None, phase_only: bool) -> BatchResult:
    """One task: a counted chunk, one thread (the worker's): its counts (a few KB) are all it ships, no trial."""
    from .api import run_batch

    return run_batch(scenario, count, seed, first_trial=first, backend=backend, threads=1, keep="summary",
                     phase_only=phase_only)


def _tree(client: Any, shared: Any, futures: list) -> Any:
    """Add the chunks up on the workers, pairwise (log2 rounds), in trial order."""
    while len(futures) > 1:
        nxt = [client.submit(merge_summaries, shared, futures[i], futures[i + 1], pure=False)
               for i in range(0, len(futures) - 1, 2)]
        if len(futures) % 2:
            nxt.append(futures[-1])
        futures = nxt
    return futures[0]


def run_batch_dask(scenario: Any, trials: int, seed: int = 0, *, client: Any = None, chunk: int = DEFAULT_CHUNK,
                   first_trial: int = 0, backend: str | None = None, phase_only: bool = False, keep: str = "summary",
                   end_of_turn: bool | None = None) -> BatchResult:
    """`hardpoint.run_batch` spread over a Dask cluster, any rule set (FAST-03).

    keep="summary" (the default): one task a chunk, the counts added up on the workers; the result equals
    `run_batch(..., keep="summary")` in one process, outcome for outcome. keep="arrays" (Car Wars only) ships
    every trial's arrays back (`hardpoint.carwars.batch.run_batch_dask`): for a million trials or so, not for
    big runs. `client`: a `distributed.Client` (default: the current one).
    """
    from .limits import check_chunk, check_seed, check_trials

    try:
        from distributed import get_client
    except ImportError:
        raise ScenarioError("Dask is not installed: pip install 'hardpoint[dask]'", field="client", rule="FAST-03") from None
    trials, first_trial = check_trials(trials, first_trial)
    seed = check_seed(seed)
    chunk = check_chunk(chunk, rule="FAST-03")
    if keep not in ("summary", "arrays"):
        raise ScenarioError("expected summary or arrays", field="keep", value=keep, rule="FAST-03")
    if end_of_turn is not None:      # the Car Wars batch's older spelling
        phase_only = not end_of_turn
    if keep == "arrays":
        if getattr(scenario, "ruleset", None) != "carwars":
            raise ScenarioError("keep='arrays' on Dask is for Car Wars scenarios; use keep='summary'", field="keep",
                                value=keep, rule="FAST-03")
        from .carwars.batch import run_batch_dask as arrays_dask

        return arrays_dask(scenario, trials, seed, client=client, chunk=chunk, first_trial=first_trial, backend=backend,
                           end_of_turn=not phase_only)
    from .ruleset import merger, ruleset_of

    merger(ruleset_of(scenario))              # a scenario no rule set (or one that cannot merge) fails here, before the cluster
    client = client or get_client()
    started = time.perf_counter()
    shared = client.scatter(scenario, broadcast=True, hash=False)    # once to each worker, not once a task; a key of its own
    bounds = [(lo, min(trials, lo + chunk) - lo) for lo in range(0, trials, chunk)]
    futures = [client.submit(_chunk, shared, seed, first_trial + lo, n, backend, phase_only, pure=False) for lo, n in bounds]
    try:
        result = _tree(client, shared, futures).result()
    except BaseException as exc:
        client.cancel(futures)
        if type(exc).__name__ == "KilledWorker":   # the same chunk killed worker after worker: say so, plainly
            raise ScenarioError(f"Dask workers died running the batch, again and again ({exc}); the result would not be "
                                "complete", field="client", value=str(getattr(client, "scheduler", "")), rule="FAST-03") from None
        raise
    result.seconds = time.perf_counter() - started
    result.backend = f"dask ({result.backend})"
    return result


def local_client(workers: int = 2, processes: bool = True) -> Any:
    """A `distributed.Client` that owns a LocalCluster of `workers` single-threaded workers (`hardpoint run --dask
    local`): closing the client (or leaving its `with`) shuts the cluster down too."""
    try:
        from distributed import Client
    except ImportError:
        raise ScenarioError("Dask is not installed: pip install 'hardpoint[dask]'", field="--dask", rule="FAST-03") from None
    return Client(n_workers=workers, threads_per_worker=1, processes=processes, dashboard_address=None)
