/* capi_timing: libhardpoint timed from a C program, no Python in the host (benchmarks/test_bench_capi.py).
 *
 *     capi_timing CALLS TRIALS ROUNDS
 *
 * Prints one JSON line: the first call (the interpreter's start), the best
 * per-call time of hp_explain of the golden example over ROUNDS loops of
 * CALLS calls, and the best time of hp_run of TRIALS trials of the default
 * scenario over ROUNDS runs, all on every core.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "hardpoint.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    const char *golden = "{\"builtin\": \"cw_tohit_example\"}", *firefight = "{\"builtin\": \"default\"}";
    long calls, rounds, r, i;
    uint64_t trials;
    double t, first, explain = 1e30, run = 1e30;
    char *doc = NULL;

    if (argc != 4)
        return 2;
    calls = atol(argv[1]);
    trials = strtoull(argv[2], NULL, 10);
    rounds = atol(argv[3]);

    t = now();
    if (hp_version(&doc) != HP_OK)
        return 1;
    first = now() - t;
    hp_free(doc);
    if (hp_explain(golden, &doc) != HP_OK || hp_run(firefight, trials, 1, 0, &doc) != HP_OK)  /* warm: imports, JIT */
        return 1;
    hp_free(doc);
    for (r = 0; r < rounds; r++) {
        t = now();
        for (i = 0; i < calls; i++) {
            if (hp_explain(golden, &doc) != HP_OK)
                return 1;
            hp_free(doc);
        }
        t = (now() - t) / (double)calls;
        explain = t < explain ? t : explain;
        t = now();
        if (hp_run(firefight, trials, 1, 0, &doc) != HP_OK)
            return 1;
        hp_free(doc);
        t = now() - t;
        run = t < run ? t : run;
    }
    printf("{\"first_call_s\": %.6f, \"explain_call_s\": %.9f, \"run_s\": %.6f}\n", first, explain, run);
    return 0;
}
