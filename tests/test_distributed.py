"""Batches on Dask, counted on the workers (FAST-03): the one process's result, a lost worker included."""
import os
import signal
import subprocess
import sys
import threading
import time
import warnings

import pytest

import hardpoint
from hardpoint.distributed import merge_summaries, run_batch_dask

distributed = pytest.importorskip("distributed")


def _rows(result):
    return [o.to_dict() for o in result.outcomes]


@pytest.fixture(scope="module")
def threads_client():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            yield client


@pytest.mark.parametrize("name,trials,chunk", [("default", 50_000, 7_777), ("asl_d15_55_gun_on_cycle", 6_000, 1_001),
                                               ("cw_tohit_example", 10_000, 10_000), ("cw_duel", 40, 7)])
def test_fast_03_counts_added_up_on_the_workers_equal_one_process(threads_client, name, trials, chunk):
    """FAST-03: every outcome (counts, sums, histograms, exact values) of a run spread in chunks over two workers and
    added up there equals `run_batch(keep="summary")` in one process; both rule sets, a fight included."""
    s = hardpoint.load_scenario(f"builtin:{name}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        spread = run_batch_dask(s, trials, seed=11, client=threads_client, chunk=chunk)
        one = hardpoint.run_batch(s, trials, seed=11, keep="summary")
    assert spread.trials == trials and spread.first_trial == 0 and spread.backend.startswith("dask")
    assert _rows(spread) == _rows(one)


def test_fast_03_merge_adds_counts_and_refuses_foreign_chunks():
    """FAST-03: two chunks merge into the batch of their trials; chunks of different scenarios are refused."""
    s = hardpoint.load_scenario("builtin:cw_tohit_example")
    a = hardpoint.run_batch(s, 3000, seed=2, keep="summary")
    b = hardpoint.run_batch(s, 2000, seed=2, first_trial=3000, keep="summary")
    both = merge_summaries(s, b, a)
    assert _rows(both) == _rows(hardpoint.run_batch(s, 5000, seed=2, keep="summary")) and both.first_trial == 0
    other = hardpoint.run_batch(hardpoint.load_scenario("builtin:default"), 100, seed=2, keep="summary")
    with pytest.raises(hardpoint.ScenarioError) as err:
        merge_summaries(s, a, other)
    assert err.value.field == "outcomes" and err.value.rule == "FAST-03"
    with pytest.raises(hardpoint.ScenarioError) as err:
        merge_summaries(s, a, hardpoint.run_batch(s, 100, seed=2, first_trial=4000, keep="summary"))
    assert err.value.field == "first_trial"


def test_fast_03_arguments_checked_before_the_cluster_is_asked(threads_client):
    s = hardpoint.load_scenario("builtin:default")
    for kwargs, field in [({"chunk": 0}, "chunk"), ({"keep": "all"}, "keep"), ({"trials": 0}, "trials")]:
        args = {"trials": 100, **kwargs}
        with pytest.raises(hardpoint.ScenarioError) as err:
            run_batch_dask(s, args.pop("trials"), client=threads_client, **args)
        assert err.value.field == field
    with pytest.raises(hardpoint.ScenarioError) as err:
        run_batch_dask(hardpoint.load_scenario("builtin:asl_d15_55_gun_on_cycle"), 100, client=threads_client, keep="arrays")
    assert err.value.field == "keep"


def test_fast_03_a_worker_killed_mid_batch_changes_nothing():
    """FAST-03: a worker process killed while the batch runs: its chunks run again on the other (and on the one the
    nanny restarts), and the result is still the one process's, outcome for outcome."""
    s = hardpoint.load_scenario("builtin:default")
    trials, chunk = 3_000_000, 20_000          # 150 tasks: the kill lands while most are still to run
    killed = {}
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            client.run(lambda: __import__("hardpoint.fastcore._carwars"))     # warm both workers
            pids = client.run(os.getpid)

            def killer():
                deadline = time.monotonic() + 60
                while time.monotonic() < deadline:
                    busy = [w for w, tasks in client.processing().items() if tasks]
                    if busy:
                        killed["before"] = sum(len(t) for t in client.processing().values())
                        os.kill(pids[busy[0]], signal.SIGKILL)
                        killed["worker"] = busy[0]
                        return
                    time.sleep(0.01)

            t = threading.Thread(target=killer)
            t.start()
            spread = run_batch_dask(s, trials, seed=4, client=client, chunk=chunk)
            t.join()
    assert "worker" in killed and killed["before"] > 0
    assert _rows(spread) == _rows(hardpoint.run_batch(s, trials, seed=4, keep="summary"))


def test_fast_03_a_local_client_shuts_its_cluster_down():
    """FAST-03: the client `hardpoint run --dask local` makes owns its cluster: leaving it stops the workers."""
    from hardpoint.distributed import local_client

    with local_client(1, processes=False) as client:
        cluster = client.cluster
        assert client.submit(sum, [1, 2]).result() == 3
    assert cluster.status.name in ("closed", "closing")


def test_fast_03_hardpoint_run_dask_local_from_the_command_line():
    """FAST-03: `hardpoint run --dask local` prints the one process's table; a bad --chunk or a scheduler that does
    not answer is one line, exit 2."""
    base = [sys.executable, "-m", "hardpoint.cli", "run", "builtin:cw_tohit_example", "--trials", "20000", "--seed", "3",
            "--json", "--no-progress"]
    spread = subprocess.run(base + ["--dask", "local", "--chunk", "3000", "--threads", "2"], capture_output=True, text=True,
                            timeout=300)
    one = subprocess.run(base, capture_output=True, text=True, timeout=300)
    assert spread.returncode == 0 and "Traceback" not in spread.stderr, spread.stderr
    import json

    a, b = json.loads(spread.stdout), json.loads(one.stdout)
    assert a["probabilities"] == b["probabilities"] and a["amounts"] == b["amounts"] and a["backend"].startswith("dask")
    bad = subprocess.run(base + ["--chunk", "0", "--dask", "local"], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "--chunk" in bad.stderr and "Traceback" not in bad.stderr
