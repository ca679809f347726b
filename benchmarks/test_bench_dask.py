"""Dask that pays (FAST-03): 10 million trials of the default scenario on a 2-worker LocalCluster, start-up included,
against one process on the same two cores. Counts are added up on the workers; only a table of counts a chunk
crosses to the client.

Target: within 2x of one process. Run: `pytest benchmarks/test_bench_dask.py -s`.
"""
import time
import warnings

import pytest

import hardpoint

from .conftest import scaled

distributed = pytest.importorskip("distributed")
TRIALS = scaled(10_000_000)


def test_fast_03_dask_summary_against_one_process(benchmark, report):
    """FAST-03: wall time of the whole Dask run (cluster start, the batch, shutdown) and of the run alone on a warm
    cluster, each against one process with two threads; the counts are checked equal."""
    from hardpoint.distributed import run_batch_dask

    s = hardpoint.load_scenario("builtin:default")
    chunk = max(1000, TRIALS // 16)
    hardpoint.run_batch(s, 1000, seed=1, keep="summary")           # the kernel loaded once, as a warm process would be

    def one_process():
        return hardpoint.run_batch(s, TRIALS, seed=1, keep="summary", threads=2)

    def cold(processes: bool):
        t = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=processes, dashboard_address=None) as cluster:
                with distributed.Client(cluster) as client:
                    result = run_batch_dask(s, TRIALS, seed=1, client=client, chunk=chunk)
                    t_up = time.perf_counter() - t
                    t_run = result.seconds
                    warm = run_batch_dask(s, TRIALS, seed=1, client=client, chunk=chunk)
        return result, t_up, t_run, warm.seconds

    t = time.perf_counter()
    one = one_process()
    t_one = time.perf_counter() - t
    spread, t_proc_total, t_proc_run, t_proc_warm = cold(True)
    threads, t_thr_total, t_thr_run, t_thr_warm = cold(False)
    t = time.perf_counter()
    one_process()
    t_one = min(t_one, time.perf_counter() - t)
    assert [o.to_dict() for o in spread.outcomes] == [o.to_dict() for o in one.outcomes]
    assert [o.to_dict() for o in threads.outcomes] == [o.to_dict() for o in one.outcomes]
    benchmark.pedantic(one_process, rounds=1, iterations=1)
    report("dask, summaries reduced on the workers", trials=TRIALS, one_process_s=t_one,
           processes_cold_s=t_proc_total, processes_cold_over_one=t_proc_total / t_one, processes_warm_over_one=t_proc_warm / t_one,
           threads_cold_s=t_thr_total, threads_cold_over_one=t_thr_total / t_one, threads_warm_over_one=t_thr_warm / t_one)
