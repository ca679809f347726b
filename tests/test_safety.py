"""Bad input never crashes, hangs or lies: the limits at the door (SAFE-01) and the command line (SAFE-02).

Each test here is a regression test for a family of failures a fuzzing
campaign found: the input is refused with a ScenarioError (a ValueError)
naming the field, the value and the rule, before anything runs; the command
line exits 2 with one line, never a traceback.
"""
import json
import os
import signal
import subprocess
import sys
import time

import pytest

import hardpoint
from hardpoint import HardpointError, ScenarioError
from hardpoint.cli import main
from hardpoint.limits import MAX_DEPTH, MAX_FILE_BYTES, check_seed, check_threads, check_trials

HEAD = '[scenario]\nname = "x"\nruleset = "carwars"\n'
CAR = '[[vehicle]]\nid = "a"\ndesign = "hunter"\n'


def load_text(tmp_path, text, name="s.toml", mode="w"):
    f = tmp_path / name
    if mode == "wb":
        f.write_bytes(text)
    else:
        f.write_text(text, encoding="utf-8")
    return hardpoint.load_scenario(f)


def refused(tmp_path, text, name="s.toml", mode="w"):
    with pytest.raises(ScenarioError) as err:
        load_text(tmp_path, text, name, mode)
    assert isinstance(err.value, ValueError) and isinstance(err.value, HardpointError)
    return err.value


# --- SAFE-01: files ---------------------------------------------------------------

def test_safe_01_a_file_that_is_not_utf8_is_refused(tmp_path):
    """SAFE-01: bytes that are not UTF-8 are refused with the byte's offset, not a UnicodeDecodeError."""
    e = refused(tmp_path, b'[scenario]\nname = "\xff"\n', mode="wb")
    assert e.field == "file" and "not UTF-8" in str(e) and "byte 19" in str(e)


def test_safe_01_a_directory_a_fifo_and_a_device_are_refused_before_reading(tmp_path):
    """SAFE-01: a directory is named as such; a FIFO or /dev/zero is refused before it is read (it would never end)."""
    with pytest.raises(ScenarioError, match="is a directory"):
        hardpoint.load_scenario(tmp_path)
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    with pytest.raises(ScenarioError, match="not a regular file") as err:
        hardpoint.load_scenario(fifo)
    assert err.value.rule == "SAFE-01"
    if os.path.exists("/dev/zero"):
        with pytest.raises(ScenarioError, match="not a regular file"):
            hardpoint.load_scenario("/dev/zero")


def test_safe_01_a_file_over_the_size_limit_is_refused(tmp_path):
    """SAFE-01: a scenario file larger than MAX_FILE_BYTES is refused by its size, before it is parsed."""
    f = tmp_path / "big.toml"
    with open(f, "wb") as fh:
        fh.write(HEAD.encode())
        fh.write(b"#" * MAX_FILE_BYTES)
    with pytest.raises(ScenarioError, match="larger than") as err:
        hardpoint.load_scenario(f)
    assert err.value.rule == "SAFE-01"


@pytest.mark.parametrize("name,text", [
    ("deep.json", '{"scenario": {"name": "x", "ruleset": "carwars"}, "rules": ' + "[" * 5000 + "]" * 5000 + "}"),
    ("deep.toml", HEAD + "[rules]\ncarwars = " + "[" * 5000 + "]" * 5000 + "\n"),
    ("deep2.json", '{"scenario": {"name": "x", "ruleset": "carwars"}, "rules": ' + "[" * 40 + "]" * 40 + "}"),
])
def test_safe_01_deep_nesting_is_refused_not_a_recursion_error(tmp_path, name, text):
    """SAFE-01: a document nested thousands deep (a RecursionError in the parsers) or deeper than MAX_DEPTH is refused."""
    e = refused(tmp_path, text, name)
    assert "nested" in str(e) and e.rule == "SAFE-01"


# --- SAFE-01: values ----------------------------------------------------------------

@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "+nan"])
def test_safe_01_non_finite_numbers_are_refused_with_their_field(tmp_path, value):
    """SAFE-01: TOML's nan and inf (which would give no speed modifier, or 'inf mph') are refused at the field."""
    e = refused(tmp_path, HEAD + CAR + f"speed = {value}\n")
    assert e.field == "vehicle[0].speed" and e.rule == "SAFE-01" and "finite" in str(e)


def test_safe_01_json_nan_is_refused_too():
    """SAFE-01: Python's json accepts NaN; a dict handed to parse_scenario is walked the same way."""
    doc = {"scenario": {"name": "x", "ruleset": "carwars"}, "vehicle": [{"id": "a", "design": "hunter", "x": float("nan")}]}
    with pytest.raises(ScenarioError) as err:
        hardpoint.parse_scenario(doc)
    assert err.value.field == "vehicle[0].x"


def test_safe_01_integers_beyond_int32_are_refused(tmp_path):
    """SAFE-01: an integer above 2**31-1 passed the schema and overflowed int32 in the batch; now refused at load."""
    e = refused(tmp_path, HEAD + CAR + "armour = {front = 2147483648}\n")
    assert e.field == "vehicle[0].armour.front" and e.value == 2**31


def test_safe_01_huge_floats_are_refused(tmp_path):
    """SAFE-01: a coordinate of 1e300 (OverflowError in geometry) is refused."""
    e = refused(tmp_path, HEAD + CAR + "x = 1e300\n")
    assert e.field == "vehicle[0].x"


@pytest.mark.parametrize("name,why", [
    ('"\\u001b[31mred"', "control character"),
    ('"bell\\u0007"', "control character"),
    ('"two\\nlines"', "control character"),
])
def test_safe_01_control_characters_in_names_are_refused(tmp_path, name, why):
    """SAFE-01: terminal escapes and other control characters in a name or id would be printed raw; refused."""
    e = refused(tmp_path, HEAD.replace('name = "x"', f"name = {name}"))
    assert e.field == "scenario.name" and why in str(e)


def test_safe_01_a_description_may_hold_newlines():
    """SAFE-01: multi-line text is fine where text is prose (a description)."""
    doc = {"scenario": {"name": "x", "ruleset": "carwars", "description": "line one\nline two\ttab"}}
    assert hardpoint.parse_scenario(doc).name == "x"


def test_safe_01_a_lone_surrogate_is_refused(tmp_path):
    """SAFE-01: JSON can carry a lone surrogate (UnicodeEncodeError on output); refused at load."""
    e = refused(tmp_path, '{"scenario": {"name": "\\ud800", "ruleset": "carwars"}}', "s.json")
    assert e.field == "scenario.name" and "surrogate" in str(e)


def test_safe_01_toml_dates_are_not_scenario_values(tmp_path):
    """SAFE-01: a TOML date is not a JSON value; refused with its field instead of failing later."""
    e = refused(tmp_path, HEAD + "[rules.carwars.tohit]\nwhen = 1979-05-27\n")
    assert e.field == "rules.carwars.tohit.when"


def test_safe_01_turns_are_bounded(tmp_path):
    """SAFE-01: `turns` has an upper bound (2**63 turns grew memory without end)."""
    with pytest.raises(ScenarioError) as err:
        load_text(tmp_path, HEAD + "turns = 1000000\n")
    assert err.value.field == "scenario.turns"


def test_safe_01_api_arguments_are_checked():
    """SAFE-01: trials, first trial, seeds and threads are whole numbers within bounds; a float seed is refused, not truncated."""
    assert check_trials(10, 5) == (10, 5)
    for bad in (0, -1, 10**13, 2.5, True):
        with pytest.raises(ScenarioError):
            check_trials(bad)
    with pytest.raises(ScenarioError, match="first_trial"):
        check_trials(10, 2**62)
    assert check_seed(7) == 7
    for bad in (1.5, -1, 2**64, "7"):
        with pytest.raises(ScenarioError):
            check_seed(bad)
    assert check_threads(None) is None and check_threads(2) == 2
    for bad in (0, -2, 1.0, 10**6):
        with pytest.raises(ScenarioError):
            check_threads(bad)


# --- SAFE-02: the command line ----------------------------------------------------------

def test_safe_02_builtin_names_are_confined_to_the_builtins(capsys):
    """SAFE-02: `builtin:../../x` loaded any TOML file on disk; only the shipped scenario names are accepted."""
    for name in ("builtin:../../pyproject", "builtin:/etc/passwd", "builtin:scenarios/default", "builtin:"):
        with pytest.raises(ScenarioError, match="no built-in scenario"):
            hardpoint.load_scenario(name)
    assert main(["explain", "builtin:../seeds/scenarios/default"]) == 2
    assert "no built-in scenario" in capsys.readouterr().err


def test_safe_02_markup_in_names_prints_as_text(tmp_path, capsys):
    """SAFE-02: '[' and ']' in a name (a rich MarkupError after every trial ran) print as themselves."""
    f = tmp_path / "s.toml"
    f.write_text('[scenario]\nname = "[/bold] x [red]"\nruleset = "carwars"\n')
    assert main(["run", str(f), "--trials", "10", "--no-progress"]) == 0
    assert "[/bold] x [red]" in capsys.readouterr().out


def _csv_scenario(tmp_path):
    from importlib import resources

    base = resources.files("hardpoint.seeds").joinpath("scenarios/cw_tohit_example.toml").read_text()
    f = tmp_path / "s.toml"
    f.write_text(base.replace('id = "mg_at_tire"', 'id = "=HYPERLINK(1)"'), encoding="utf-8")
    return f


def test_safe_02_csv_cells_cannot_start_a_formula(tmp_path):
    """SAFE-02: an outcome named '=HYPERLINK(...)' is written to CSV with a leading quote."""
    f = _csv_scenario(tmp_path)
    assert "=HYPERLINK(1)" in f.read_text()
    out = tmp_path / "out.csv"
    assert main(["run", str(f), "--trials", "50", "--no-progress", "--csv", str(out)]) == 0
    import csv

    rows = list(csv.reader(out.read_text().splitlines()))[1:]
    cells = [c for r in rows for c in r]
    assert rows and not any(c.startswith(("=", "+", "@")) for c in cells)
    assert "'=HYPERLINK(1)" in cells and "'=HYPERLINK(1) hit" in cells


def test_safe_02_csv_path_is_checked_before_the_run(tmp_path, monkeypatch, capsys):
    """SAFE-02: a bad --csv path is an error before any trial runs; an existing file is kept unless --overwrite."""
    from hardpoint import run as run_module

    def must_not_run(*a, **k):
        raise AssertionError("the run started before the --csv path was checked")

    monkeypatch.setattr(run_module, "summarize", must_not_run)
    assert main(["run", "--trials", "100", "--no-progress", "--csv", str(tmp_path / "no" / "such" / "dir.csv")]) == 2
    assert "--csv" in capsys.readouterr().err
    existing = tmp_path / "keep.csv"
    existing.write_text("precious")
    assert main(["run", "--trials", "100", "--no-progress", "--csv", str(existing)]) == 2
    assert "exists" in capsys.readouterr().err and existing.read_text() == "precious"
    assert main(["run", "--trials", "100", "--no-progress", "--csv", str(tmp_path)]) == 2
    monkeypatch.undo()
    assert main(["run", "--trials", "100", "--no-progress", "--csv", str(existing), "--overwrite"]) == 0
    assert existing.read_text().startswith("kind,measure,unit,attack,")


def test_safe_02_bad_arguments_exit_2_naming_the_option(capsys):
    """SAFE-02 / CLI-01: --threads 0, a negative or float seed, zero trials: exit 2 with the option named."""
    for argv, name in ((["run", "--threads", "0"], "--threads"), (["run", "--seed", "-1"], "--seed"),
                       (["run", "--seed", "1.5"], "--seed"), (["run", "--trials", "0"], "--trials")):
        with pytest.raises(SystemExit) as ex:
            main(argv)
        assert ex.value.code == 2 and name in capsys.readouterr().err


def test_safe_02_an_internal_error_is_one_line_exit_70(monkeypatch, capsys):
    """SAFE-02: a bug prints one line and exits 70, never a traceback."""
    from hardpoint.carwars.scenario import CarWarsScenario

    def boom(self):
        raise ZeroDivisionError("simulated bug")

    monkeypatch.setattr(CarWarsScenario, "render_explain", boom)
    monkeypatch.delenv("HARDPOINT_DEBUG", raising=False)
    assert main(["explain", "builtin:cw_tohit_example"]) == 70
    err = capsys.readouterr().err
    assert "internal error: ZeroDivisionError: simulated bug" in err and "Traceback" not in err


def _hardpoint(*args, **kw):
    return subprocess.Popen([sys.executable, "-m", "hardpoint.cli", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)


def test_safe_02_a_closed_pipe_ends_quietly():
    """SAFE-02: output piped to a program that stops reading (BrokenPipeError) ends the command without a word."""
    p = _hardpoint("resolve", "builtin:cw_chase", "--seed", "3", "--json")
    p.stdout.read(100)
    p.stdout.close()
    err = p.stderr.read().decode()
    rc = p.wait(timeout=60)
    assert err == "" and rc in (0, 141)


def test_safe_02_standard_input_is_a_scenario(tmp_path):
    """CLI-01: `-` reads the scenario from standard input (TOML or JSON)."""
    from importlib import resources

    text = resources.files("hardpoint.seeds").joinpath("scenarios/cw_tohit_example.toml").read_text()
    r = subprocess.run([sys.executable, "-m", "hardpoint.cli", "explain", "-"], input=text.encode(), capture_output=True, timeout=60)
    assert r.returncode == 0 and b"needs 10 on 2d6" in r.stdout
    import tomllib

    r = subprocess.run([sys.executable, "-m", "hardpoint.cli", "explain", "-", "--json"], input=json.dumps(tomllib.loads(text)).encode(),
                       capture_output=True, timeout=60)
    assert r.returncode == 0 and json.loads(r.stdout)["breakdowns"][0]["needed"] == 10


def _interrupt_run(*extra):
    # Ctrl-C reaches the command with SIGINT at its default even when these tests run as a background job (whose
    # children a shell starts with SIGINT ignored: Python then never raises KeyboardInterrupt)
    p = _hardpoint("run", "builtin:default", "--trials", "1000000000000", "--no-progress", *extra,
                   preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        line = p.stderr.readline()            # the run has started once it says so
        assert b"running" in line, line
        time.sleep(1.5)
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=120)
    finally:
        if p.poll() is None:                  # never leave a run of 10**12 trials behind
            p.kill()
            p.wait()
    return p.returncode, out.decode(), err.decode()


@pytest.mark.parametrize("backend", ["compiled", "reference"])
def test_safe_02_ctrl_c_exits_130_with_the_trials_done(backend):
    """SAFE-02: Ctrl-C during a run of 10**12 trials (which once submitted every chunk up front and ignored Ctrl-C)
    stops between chunks, prints the summary of the trials done and exits 130, with no traceback."""
    rc, out, err = _interrupt_run("--backend", backend)
    assert rc == 130, err
    assert "Traceback" not in err and "interrupted after" in err
    assert "interrupted after" in out and "laser_at_outrider hit" in out


def test_safe_02_ctrl_c_json_says_interrupted():
    """SAFE-02: with --json the partial summary says it was interrupted and how many trials it covers."""
    rc, out, err = _interrupt_run("--json")
    assert rc == 130, err
    data = json.loads(out)
    assert data["interrupted"] is True and 0 < data["trials"] < data["requested"] == 10**12


def test_safe_01_run_chunks_stops_on_cancel_with_a_contiguous_prefix():
    """SAFE-02: a cancelled batch keeps the chunks done, in order, from trial 0; never more in flight than twice the threads."""
    import threading

    from hardpoint.trials import run_chunks

    cancel = threading.Event()
    seen = []
    flight = {"now": 0, "max": 0}
    lock = threading.Lock()

    def work(lo, hi):
        with lock:
            flight["now"] += 1
            flight["max"] = max(flight["max"], flight["now"])
        time.sleep(0.002)
        if lo >= 500:
            cancel.set()
        with lock:
            flight["now"] -= 1
        seen.append(lo)
        return (lo, hi)

    run = run_chunks(work, 10**9, 10, threads=2, cancel=cancel)
    assert run.interrupted and run.done == len(run.results) * 10
    assert [r[0] for r in run.results] == list(range(0, run.done, 10))
    assert flight["max"] <= 4 and run.done < 10**4


def test_safe_01_arrays_mode_refuses_more_memory_than_the_machine_has():
    """SAFE-01: asking for arrays that would not fit in memory is an error before anything runs."""
    from hardpoint.carwars.batch import run_batch

    s = hardpoint.load_scenario("builtin:default")
    with pytest.raises(ScenarioError, match="GiB") as err:
        run_batch(s, 10**12, 1)
    assert err.value.field == "trials"
    assert run_batch(s, 10**9, 1, keep="summary", backend="compiled", chunk=10**9, threads=1, first_trial=0,
                     cancel=_set_event()).trials == 0


def _set_event():
    import threading

    e = threading.Event()
    e.set()
    return e


def test_safe_01_batch_arguments_are_checked():
    """SAFE-01: float seeds, zero or negative trials, chunk 0 and trial numbers past 2**62 are refused by run_batch."""
    from hardpoint.carwars.batch import run_batch

    s = hardpoint.load_scenario("builtin:cw_tohit_example")
    for kw in ({"trials": 0}, {"trials": -5}, {"seed": 1.5}, {"chunk": 0}, {"first_trial": 2**62}, {"threads": 0}):
        args = {"trials": 10, "seed": 1, **kw}
        with pytest.raises(ScenarioError):
            run_batch(s, args.pop("trials"), args.pop("seed"), **args)
    asl = hardpoint.load_scenario("builtin:asl_d15_55_gun_on_cycle")
    with pytest.raises(ScenarioError, match="Car Wars"):
        run_batch(asl, 10, 1)
