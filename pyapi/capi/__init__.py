"""libhardpoint: hardpoint as a C library, built with cffi's embedding API (CAPI-01).

`build(out_dir)` writes `libhardpoint.so` (`.dylib`, `.dll`) and `hardpoint.h`
for the hardpoint installed in the running Python; `hardpoint capi build --out
DIR` does the same from the command line. A C program includes the header,
links the library, and never sees Python:

    char *doc = NULL;
    int status = hp_explain("{\\"builtin\\": \\"cw_tohit_example\\"}", &doc);
    puts(doc);           /* {"id":null,"format":"hardpoint/1","op":"explain","result":...} */
    hp_free(doc);

How it is put together:

- the public functions (`hardpoint.h`) are small C functions: they check the
  `out` pointer, start the embedded interpreter themselves (so a Python that
  cannot start is an error document, never an abort), and call one Python
  entry point, `hp__call`, declared with `ffi.embedding_api`;
- `hp__call`'s Python side is set up by the init code
  (`ffi.embedding_init_code`), which imports `hardpoint.capi.bridge`; the
  bridge turns the arguments into a request of `hardpoint.protocol.handle`
  and its answer into JSON text, and never raises;
- the interpreter starts as the Python that built the library (its
  executable, so a virtual environment's site-packages are found), with no
  signal handlers, honouring PYTHONHOME and PYTHONPATH (docs/capi.md).

Building needs cffi (`pip install 'hardpoint[capi]'`), a C compiler, and the
Python headers and shared libpython of the running interpreter.
"""
from __future__ import annotations

import os
import shutil
import site
import sys
import sysconfig
import tempfile
from importlib import resources
from pathlib import Path

from ..errors import HardpointError

__all__ = ["build", "header_text", "CapiBuildError", "MODULE_NAME", "LIBRARY_NAME"]

MODULE_NAME = "_hardpoint_capi"      # the module the library registers inside its interpreter
LIBRARY_NAME = "libhardpoint"

# The Python entry point every public function goes through (not in hardpoint.h). `op` is one of the bridge's OPS.
ENTRY_CDEF = """
int hp__call(int op, const char *text, uint64_t a, uint64_t b, int threads, const char *attack, char **out);
"""

# C helpers the init code calls from Python.
HELPER_CDEF = """
char *hp__copy(const char *data, size_t n);
"""

_PREAMBLE = r"""
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <stdint.h>
#ifndef _WIN32
#include <pthread.h>
#endif
#include "hardpoint.h"

CFFI_DLLEXPORT int hp__call(int op, const char *text, uint64_t a, uint64_t b, int threads, const char *attack,
                            char **out);

char *hp__copy(const char *data, size_t n)
{
    char *p = (char *)malloc(n + 1);
    if (p != NULL) {
        memcpy(p, data, n);
        p[n] = '\0';
    }
    return p;
}

/* The Python the library embeds: the executable that built it (a venv's python finds its site-packages). */
static const char hp__program[] = @PROGRAM@;
static char hp__start_error[768];

static void hp__start_python(void)
{
    PyStatus status;
    PyConfig config;
    if (Py_IsInitialized())   /* a host that is itself Python (ctypes), or another embedded library */
        return;
    PyConfig_InitPythonConfig(&config);
    config.install_signal_handlers = 0;   /* the host program owns its signals */
    config.parse_argv = 0;
    status = PyConfig_SetBytesString(&config, &config.program_name, hp__program);
    if (!PyStatus_Exception(status))
        status = Py_InitializeFromConfig(&config);
    PyConfig_Clear(&config);
    if (PyStatus_Exception(status)) {
        snprintf(hp__start_error, sizeof hp__start_error, "%s%s%s", status.func ? status.func : "",
                 status.func ? ": " : "", status.err_msg ? status.err_msg : "unknown error");
        return;
    }
    PyEval_SaveThread();   /* as cffi does: the calls take the GIL with PyGILState_Ensure */
}

#ifdef _WIN32
static volatile long hp__started = 0;
static void hp__once(void) { if (!hp__started) { hp__start_python(); hp__started = 1; } }
#else
static pthread_once_t hp__once_flag = PTHREAD_ONCE_INIT;
static void hp__once(void) { pthread_once(&hp__once_flag, hp__start_python); }
#endif

/* An error document written in C, for when Python cannot give one. Messages here hold no quote or backslash. */
static int hp__fail(char **out, const char *op, const char *message, const char *detail)
{
    static const char fmt[] = "{\"id\":null,\"format\":\"" HP_FORMAT "\"%s%s%s,\"error\":{\"type\":\"internal\","
                              "\"field\":\"\",\"value\":null,\"rule\":\"CAPI-01\",\"message\":\"%s%s%s\"}}";
    /* "op" as the protocol writes it: only for an operation of the protocol (hp_request's may be any) */
    const char *op_key = strcmp(op, "request") ? ",\"op\":\"" : "", *op_name = strcmp(op, "request") ? op : "",
               *op_end = strcmp(op, "request") ? "\"" : "";
    char clean[768];
    size_t i, n = 0;
    int len;
    for (i = 0; detail != NULL && detail[i] != '\0' && n + 1 < sizeof clean; i++) {
        unsigned char c = (unsigned char)detail[i];
        clean[n++] = (c < 0x20 || c >= 0x7f || c == '"' || c == '\\') ? '?' : (char)c;
    }
    clean[n] = '\0';
    len = snprintf(NULL, 0, fmt, op_key, op_name, op_end, message, n ? ": " : "", clean);
    *out = len < 0 ? NULL : (char *)malloc((size_t)len + 1);
    if (*out == NULL)
        return HP_ERR_NOMEM;
    snprintf(*out, (size_t)len + 1, fmt, op_key, op_name, op_end, message, n ? ": " : "", clean);
    return HP_ERR_INTERNAL;
}

static int hp__dispatch(int op, const char *name, const char *text, uint64_t a, uint64_t b, int threads,
                        const char *attack, char **out)
{
    int status;
    if (out == NULL)
        return HP_ERR_INPUT;
    *out = NULL;
    hp__once();
    if (hp__start_error[0] != '\0')
        return hp__fail(out, name, "the embedded Python interpreter could not start", hp__start_error);
    if (cffi_start_python() != 0)
        return hp__fail(out, name, "the embedded Python could not load hardpoint", NULL);
    status = hp__call(op, text, a, b, threads, attack, out);
    if (*out == NULL && status != HP_ERR_NOMEM)   /* the Python side failed before it could answer */
        return hp__fail(out, name, "the Python side of libhardpoint gave no answer", NULL);
    return status;
}

CFFI_DLLEXPORT int hp_version(char **out)
{ return hp__dispatch(@OP_version@, "version", NULL, 0, 0, 0, NULL, out); }

CFFI_DLLEXPORT int hp_schema(char **out)
{ return hp__dispatch(@OP_schema@, "schema", NULL, 0, 0, 0, NULL, out); }

CFFI_DLLEXPORT int hp_explain(const char *scenario_json, char **out)
{ return hp__dispatch(@OP_explain@, "explain", scenario_json, 0, 0, 0, NULL, out); }

CFFI_DLLEXPORT int hp_resolve(const char *scenario_json, uint64_t seed, char **out)
{ return hp__dispatch(@OP_resolve@, "resolve", scenario_json, seed, 0, 0, NULL, out); }

CFFI_DLLEXPORT int hp_run(const char *scenario_json, uint64_t trials, uint64_t seed, int threads, char **out)
{ return hp__dispatch(@OP_run@, "run", scenario_json, trials, seed, threads, NULL, out); }

CFFI_DLLEXPORT int hp_exact(const char *scenario_json, const char *attack_id, char **out)
{ return hp__dispatch(@OP_exact@, "exact", scenario_json, 0, 0, 0, attack_id, out); }

CFFI_DLLEXPORT int hp_request(const char *request_json, char **out)
{ return hp__dispatch(@OP_request@, "request", request_json, 0, 0, 0, NULL, out); }

CFFI_DLLEXPORT void hp_free(char *s)
{ free(s); }
"""

# Runs once, inside the library's interpreter, before the first call. It must not raise: an exception here
# would make cffi print a traceback on stderr, so a failure is kept and every call answers it as an error document.
_INIT_CODE = r'''
import sys

_SITE_DIRS = @SITE_DIRS@
_failure = None
bridge = None
try:
    import site
    for _d in _SITE_DIRS:   # the build's site-packages (and their .pth files), if the interpreter did not find them
        if _d not in sys.path:
            site.addsitedir(_d)
    from hardpoint.capi import bridge
except BaseException as _exc:
    _failure = "hardpoint could not be imported: %s: %s" % (type(_exc).__name__, _exc)

from @MODULE@ import ffi, lib


def _quiet(exc_type, exc_value, tb):
    return None   # HP_ERR_INTERNAL; the C wrapper writes the error document


@ffi.def_extern(error=2, onerror=_quiet)
def hp__call(op, text, a, b, threads, attack, out):
    try:
        if bridge is None:
            import json
            status, doc = 2, json.dumps({"id": None, "format": "hardpoint/1", "error": {
                "type": "internal", "field": "", "value": None, "rule": "CAPI-01", "message": _failure}})
        else:
            status, doc = bridge.call(op, None if text == ffi.NULL else ffi.string(text), a, b, threads,
                                      None if attack == ffi.NULL else ffi.string(attack))
        data = doc.encode("utf-8") if doc is not None else None
    except BaseException:
        return 2
    if data is None:
        return 2
    p = lib.hp__copy(data, len(data))
    if p == ffi.NULL:
        return 3
    out[0] = p
    return status
'''


class CapiBuildError(HardpointError, RuntimeError):
    """The C library could not be built (no cffi, no C compiler, no shared libpython)."""


def header_text() -> str:
    """The text of hardpoint.h."""
    return resources.files(__name__).joinpath("hardpoint.h").read_text(encoding="utf-8")


def _c_string(text: str) -> str:
    return '"' + "".join(c if c.isascii() and c.isprintable() and c not in '"\\' else
                         "".join(f"\\{b:03o}" for b in c.encode("utf-8")) for c in text) + '"'


def _site_dirs() -> list[str]:
    """The folders the running interpreter imports hardpoint and its dependencies from."""
    dirs = list(site.getsitepackages()) if hasattr(site, "getsitepackages") else []
    if site.ENABLE_USER_SITE and os.path.isdir(site.getusersitepackages()):
        dirs.append(site.getusersitepackages())
    return [d for d in dirs if os.path.isdir(d)]


def build(out_dir: str | os.PathLike[str], *, verbose: bool = False) -> Path:
    """Write libhardpoint (the shared library) and hardpoint.h into out_dir; return the library's path.

    Raises CapiBuildError when cffi, a C compiler or the shared libpython is missing.
    """
    try:
        import cffi
    except ImportError:
        raise CapiBuildError("cffi is not installed: pip install 'hardpoint[capi]'") from None
    if not sysconfig.get_config_var("Py_ENABLE_SHARED") and sys.platform != "win32":
        raise CapiBuildError(f"this Python ({sys.executable}) has no shared libpython to embed; use a Python built "
                             "with --enable-shared (most system and pyenv Pythons are)")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    header = header_text()
    preamble = _PREAMBLE.replace("@PROGRAM@", _c_string(sys.executable))
    from .bridge import OPS   # the op numbers the C wrappers pass to the bridge

    for number, name in enumerate(OPS):
        preamble = preamble.replace(f"@OP_{name}@", str(number))
    assert "@OP_" not in preamble, "an op of hardpoint.h has no number in hardpoint.capi.bridge.OPS"
    init = _INIT_CODE.replace("@SITE_DIRS@", repr(_site_dirs())).replace("@MODULE@", MODULE_NAME)

    ffi = cffi.FFI()
    ffi.embedding_api(ENTRY_CDEF)
    ffi.cdef(HELPER_CDEF)
    libdir = sysconfig.get_config_var("LIBDIR")
    link_args = [] if sys.platform == "win32" else ["-Wl,-rpath," + libdir] if libdir else []
    with tempfile.TemporaryDirectory(prefix="hardpoint-capi-") as tmp:
        (Path(tmp) / "hardpoint.h").write_text(header, encoding="utf-8")
        ffi.set_source(MODULE_NAME, preamble, include_dirs=[tmp], library_dirs=[libdir] if libdir else [],
                       extra_compile_args=[] if sys.platform == "win32" else ["-fvisibility=hidden"],
                       extra_link_args=link_args)
        ffi.embedding_init_code(init)
        try:
            built = Path(ffi.compile(tmpdir=tmp, target=f"{LIBRARY_NAME}.*", verbose=verbose))
        except Exception as exc:   # cffi reports a missing compiler or header as VerificationError / CompileError
            raise CapiBuildError(f"building {LIBRARY_NAME} failed: {type(exc).__name__}: {exc}") from None
        library = out / built.name
        shutil.copyfile(built, library)
    (out / "hardpoint.h").write_text(header, encoding="utf-8")
    return library
