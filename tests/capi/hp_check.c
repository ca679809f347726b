/* hp_check: proves libhardpoint from C (CAPI-02). Compiled and run by tests/capi/test_capi.py.
 *
 *     hp_check OUTDIR SCENARIO.json TRIALS SEED [ASL_BUILTIN]
 *
 * Calls every function of hardpoint.h as a C program would, checks what C can
 * check (statuses, the golden to-hit example, error documents, that two
 * threads get the answers one thread gets) and writes each answer to
 * OUTDIR/<name>.json, where the test compares it with the Python API's.
 * Prints "ok <check>" or "FAIL <check>: <why>" per check; exits 0 only if
 * every check passed.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hardpoint.h"

static const char *outdir;
static int failures;

static void check(int ok, const char *name, const char *why)
{
    if (ok)
        printf("ok %s\n", name);
    else {
        printf("FAIL %s: %s\n", name, why);
        failures++;
    }
    fflush(stdout);
}

static void save(const char *name, const char *doc)
{
    char path[4096];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s.json", outdir, name);
    f = fopen(path, "w");
    if (f == NULL) {
        check(0, name, "cannot write the answer file");
        return;
    }
    fputs(doc ? doc : "null", f);
    fclose(f);
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    long n;
    char *buf;
    if (f == NULL)
        return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = malloc((size_t)n + 1);
    if (buf != NULL && fread(buf, 1, (size_t)n, f) == (size_t)n)
        buf[n] = '\0';
    else {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    return buf;
}

/* The value after the first "key": in a JSON text (enough for the flat checks made here). */
static const char *value_of(const char *doc, const char *key)
{
    char quoted[128];
    const char *p;
    snprintf(quoted, sizeof quoted, "\"%s\"", key);
    p = doc ? strstr(doc, quoted) : NULL;
    if (p == NULL)
        return NULL;
    p += strlen(quoted);
    while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
        p++;
    if (*p++ != ':')
        return NULL;
    while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
        p++;
    return p;
}

static int value_is(const char *doc, const char *key, const char *expected)
{
    const char *v = value_of(doc, key);
    return v != NULL && strncmp(v, expected, strlen(expected)) == 0;
}

static const char GOLDEN[] = "{\"builtin\": \"cw_tohit_example\"}";
static char *scenario;           /* the scenario document given on the command line */
static uint64_t trials, seed;
static char *explain_one, *resolve_one;   /* the answers of the main thread, for the threads to match */

static const char *asl_builtin;   /* optional: an ASL built-in both threads also run (Numba's parallel kernel) */

struct job {
    int index;
    pthread_barrier_t *start;
    int explain_same, resolve_same, run_status, asl_status;
};

static void *worker(void *arg)
{
    struct job *job = arg;
    char *doc = NULL, name[64];
    pthread_barrier_wait(job->start);   /* both threads call at the same moment */
    hp_explain(GOLDEN, &doc);
    job->explain_same = doc != NULL && explain_one != NULL && strcmp(doc, explain_one) == 0;
    hp_free(doc);
    hp_resolve(scenario, seed, &doc);
    job->resolve_same = doc != NULL && resolve_one != NULL && strcmp(doc, resolve_one) == 0;
    hp_free(doc);
    /* a different seed per thread, one worker thread each: the test compares each with run_batch */
    job->run_status = hp_run(scenario, trials / 2, seed + 1 + (uint64_t)job->index, 1, &doc);
    snprintf(name, sizeof name, "thread%d_run", job->index);
    save(name, doc);
    hp_free(doc);
    job->asl_status = HP_OK;
    if (asl_builtin != NULL) {
        char request[256];
        snprintf(request, sizeof request, "{\"builtin\": \"%s\"}", asl_builtin);
        job->asl_status = hp_run(request, 20000, seed + 1 + (uint64_t)job->index, 2, &doc);
        snprintf(name, sizeof name, "thread%d_asl", job->index);
        save(name, doc);
        hp_free(doc);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    char *doc = NULL, *again = NULL;
    int status, i;
    pthread_t threads[2];
    struct job jobs[2];
    pthread_barrier_t start;

    if (argc != 5 && argc != 6) {
        fprintf(stderr, "usage: hp_check OUTDIR SCENARIO.json TRIALS SEED [ASL_BUILTIN]\n");
        return 2;
    }
    asl_builtin = argc == 6 ? argv[5] : NULL;
    outdir = argv[1];
    scenario = read_file(argv[2]);
    trials = strtoull(argv[3], NULL, 10);
    seed = strtoull(argv[4], NULL, 10);
    if (scenario == NULL) {
        fprintf(stderr, "cannot read %s\n", argv[2]);
        return 2;
    }

    status = hp_version(&doc);
    check(status == HP_OK && value_is(doc, "format", "\"" HP_FORMAT "\""), "version", doc ? doc : "no answer");
    save("version", doc);
    hp_free(doc);

    status = hp_schema(&doc);
    check(status == HP_OK && doc != NULL && strstr(doc, "json-schema.org") != NULL, "schema", "no JSON Schema in the answer");
    hp_free(doc);

    /* the seed's golden example: MG at a cycle's tire at night, needs 10 on 2d6, probability 1/6 */
    status = hp_explain(GOLDEN, &explain_one);
    check(status == HP_OK && value_is(explain_one, "needed", "10")
          && (value_is(explain_one, "probability_exact", "\"1/6\"") || value_is(explain_one, "probability", "\"1/6\"")),
          "golden_needs_10_probability_1_6", explain_one ? explain_one : "no answer");
    save("explain", explain_one);

    status = hp_resolve(scenario, seed, &resolve_one);
    check(status == HP_OK, "resolve", resolve_one ? resolve_one : "no answer");
    save("resolve", resolve_one);
    hp_resolve(scenario, seed, &again);
    check(again != NULL && resolve_one != NULL && strcmp(again, resolve_one) == 0, "resolve_same_seed_same_log", "two answers differ");
    hp_free(again);

    status = hp_run(scenario, trials, seed, 0, &doc);
    check(status == HP_OK, "run", doc ? doc : "no answer");
    save("run", doc);
    hp_free(doc);

    status = hp_exact(GOLDEN, "mg_at_tire", &doc);
    check(status == HP_OK && value_is(doc, "exact_fraction", "\"1/6\""), "exact", doc ? doc : "no answer");
    save("exact", doc);
    hp_free(doc);

    /* errors: a status and an error document naming the field, never an abort */
    status = hp_explain("{\"builtin\": ", &doc);
    check(status == HP_ERR_INPUT && value_is(doc, "field", "\"scenario_json\"") && value_of(doc, "message"),
          "malformed_json", doc ? doc : "no answer");
    save("err_malformed", doc);
    hp_free(doc);

    status = hp_run(NULL, 10, 1, 0, &doc);
    check(status == HP_ERR_INPUT && value_is(doc, "field", "\"scenario_json\""), "null_scenario", doc ? doc : "no answer");
    save("err_null", doc);
    hp_free(doc);

    status = hp_resolve("{\"builtin\": \"cw_tohit_\xff\"}", 1, &doc);
    check(status == HP_ERR_INPUT && value_of(doc, "error") != NULL, "not_utf8", doc ? doc : "no answer");
    save("err_utf8", doc);
    hp_free(doc);

    status = hp_explain("{\"builtin\": \"no_such_scenario\"}", &doc);
    check(status == HP_ERR_INPUT && value_of(doc, "error") != NULL, "unknown_builtin", doc ? doc : "no answer");
    save("err_builtin", doc);
    hp_free(doc);

    status = hp_explain("{\"scenario\": {\"name\": \"x\", \"ruleset\": \"carwars\"}, \"vehicle\": 3}", &doc);
    check(status == HP_ERR_INPUT && value_of(doc, "rule") != NULL, "bad_scenario", doc ? doc : "no answer");
    save("err_scenario", doc);
    hp_free(doc);

    check(hp_explain(GOLDEN, NULL) == HP_ERR_INPUT, "null_out", "a NULL out pointer was not refused");
    hp_free(NULL);

    /* two threads at once */
    pthread_barrier_init(&start, NULL, 2);
    for (i = 0; i < 2; i++) {
        jobs[i].index = i;
        jobs[i].start = &start;
        pthread_create(&threads[i], NULL, worker, &jobs[i]);
    }
    for (i = 0; i < 2; i++) {
        pthread_join(threads[i], NULL);
        check(jobs[i].explain_same, "thread_explain", "a thread's explain differs from the main thread's");
        check(jobs[i].resolve_same, "thread_resolve", "a thread's event log differs from the main thread's");
        check(jobs[i].run_status == HP_OK, "thread_run", "a thread's run failed");
        check(jobs[i].asl_status == HP_OK, "thread_asl_run", "a thread's ASL run failed");
    }
    pthread_barrier_destroy(&start);

    hp_free(explain_one);
    hp_free(resolve_one);
    free(scenario);
    printf("%s\n", failures ? "FAILED" : "ALL OK");
    return failures ? 1 : 0;
}
