/* hp_first_calls: four threads make the process's very first libhardpoint calls at the same moment, so they race
 * to start the embedded interpreter (CAPI-01). Compiled and run by tests/capi/test_capi.py.
 * Prints "ALL OK" and exits 0 when every thread got the golden explain document, the same text each.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "hardpoint.h"

#define THREADS 4

static pthread_barrier_t start;
static char *answers[THREADS];
static int statuses[THREADS];

static void *first_call(void *arg)
{
    long i = (long)arg;
    pthread_barrier_wait(&start);
    statuses[i] = hp_explain("{\"builtin\": \"cw_tohit_example\"}", &answers[i]);
    return NULL;
}

int main(void)
{
    pthread_t threads[THREADS];
    long i;
    int failed = 0;
    pthread_barrier_init(&start, NULL, THREADS);
    for (i = 0; i < THREADS; i++)
        pthread_create(&threads[i], NULL, first_call, (void *)i);
    for (i = 0; i < THREADS; i++)
        pthread_join(threads[i], NULL);
    for (i = 0; i < THREADS; i++) {
        if (statuses[i] != HP_OK || answers[i] == NULL || strcmp(answers[i], answers[0]) != 0
            || strstr(answers[i], "\"needed\":10") == NULL) {
            printf("FAIL thread %ld: status %d: %.300s\n", i, statuses[i], answers[i] ? answers[i] : "no answer");
            failed = 1;
        }
    }
    for (i = 0; i < THREADS; i++)
        hp_free(answers[i]);
    pthread_barrier_destroy(&start);
    puts(failed ? "FAILED" : "ALL OK");
    return failed;
}
