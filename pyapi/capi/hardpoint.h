/* hardpoint.h: the C interface of hardpoint (CAPI-01).
 *
 * libhardpoint is built with cffi's embedding API: it carries a Python
 * interpreter and the installed hardpoint package behind these functions, and
 * a C program links it like any library (docs/capi.md). Every function takes
 * and returns UTF-8 JSON text: the same versioned documents ("format":
 * "hardpoint/1") as `hardpoint serve` and the command line's --json.
 *
 * Scenario arguments (scenario_json) are either a whole scenario document,
 * as JSON, e.g. {"scenario": {"name": "...", "ruleset": "carwars"}, ...}, or an
 * object with the one key "builtin" naming a shipped scenario, e.g.
 * {"builtin": "cw_tohit_example"} (see `hardpoint scenarios`).
 *
 * Every function returns a status: HP_OK, or an HP_ERR_* code. On HP_OK *out
 * is the answer document; on HP_ERR_INPUT and HP_ERR_INTERNAL *out is an error
 * document, {"id": null, "format": "hardpoint/1", "op": ..., "error":
 * {"type", "field", "value", "rule", "message"}}. Either way the string is the
 * caller's: free it with hp_free. Only HP_ERR_NOMEM, and an `out` that is
 * NULL, leave *out NULL. No function aborts the program or prints a Python
 * traceback; a NULL or non-UTF-8 argument is an input error like any other.
 * (If the embedded Python cannot start at all, e.g. a wrong PYTHONHOME,
 * CPython writes its path configuration on stderr once, and every call
 * returns HP_ERR_INTERNAL saying so.)
 *
 * Thread safety: every function may be called from several threads at once.
 * Calls take the interpreter's lock while they run Python; the compiled batch
 * (hp_run) releases it while it rolls and runs on its own threads.
 */
#ifndef HARDPOINT_H
#define HARDPOINT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of the JSON documents; it changes only with an incompatible change. */
#define HP_FORMAT "hardpoint/1"

#define HP_OK 0             /* *out: the answer document */
#define HP_ERR_INPUT 1      /* *out: an error document; the input was refused (bad JSON, scenario, argument) */
#define HP_ERR_INTERNAL 2   /* *out: an error document; a bug, or the embedded Python could not start */
#define HP_ERR_NOMEM 3      /* *out is NULL: no memory for the answer */

/* The version document: hardpoint's version, the document format, the operations. */
int hp_version(char **out);

/* The scenario JSON Schema (draft 2020-12), as the "result" of a schema document. */
int hp_schema(char **out);

/* To-hit breakdown of every declared attack, without rolling (the same document as `hardpoint explain --json`). */
int hp_explain(const char *scenario_json, char **out);

/* One trial rolled with the dice of `seed`: the outcome and the event log (`hardpoint resolve --seed S --json`). */
int hp_resolve(const char *scenario_json, uint64_t seed, char **out);

/* `trials` independent trials; trial t rolls the dice of (seed, t), so the counts do not depend on
 * `threads` (0: every core; otherwise 1 to 1024) (`hardpoint run --json`). */
int hp_run(const char *scenario_json, uint64_t trials, uint64_t seed, int threads, char **out);

/* Exact odds of one declared attack, or, with attack_id NULL, of every one (the scenario's exact outcomes). */
int hp_exact(const char *scenario_json, const char *attack_id, char **out);

/* Any request of the protocol as one JSON object, e.g. {"op": "duel", ...}; the answer as above. */
int hp_request(const char *request_json, char **out);

/* Free a string returned by any hp_ function (NULL is allowed). */
void hp_free(char *s);

#ifdef __cplusplus
}
#endif

#endif /* HARDPOINT_H */
