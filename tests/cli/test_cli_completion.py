"""robomaze completion bash|zsh: the script is valid shell and completes what the
parsers know (commands, options, choices), checked by running bash's completion."""

import shutil
import subprocess

import pytest

from robomaze.cli import COMMANDS, build_parser, main


def _complete(script: str, words: list[str]) -> set[str]:
    line = " ".join(f"'{w}'" if w else "''" for w in words)
    prog = (script + "\nCOMP_WORDS=(" + line + ")\nCOMP_CWORD=" + str(len(words) - 1)
            + "\n_robomaze\nprintf '%s\\n' \"${COMPREPLY[@]}\"\n")
    res = subprocess.run(["bash", "-c", prog], capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    return set(res.stdout.split())


@pytest.fixture(scope="module")
def bash_script(tmp_path_factory):
    if shutil.which("bash") is None:
        pytest.skip("needs bash")
    from robomaze.cli.completion import bash_script

    return bash_script(build_parser())


def test_bash_completes_commands_options_and_choices(bash_script):
    assert _complete(bash_script, ["robomaze", ""]) == set(COMMANDS)
    assert _complete(bash_script, ["robomaze", "si"]) == {"simulate"}
    assert _complete(bash_script, ["robomaze", "--max-cells", "10", "pl"]) == {"play", "plan"}
    assert "--executor" in _complete(bash_script, ["robomaze", "bench", "--ex"])
    assert _complete(bash_script, ["robomaze", "bench", "--executor", ""]) == {"local", "dask"}
    assert "export" in _complete(bash_script, ["robomaze", "bench", ""])
    assert _complete(bash_script, ["robomaze", "completion", ""]) == {"bash", "zsh"}
    # every option of every command is offered after its command
    for name, sub in build_parser()._subparsers._group_actions[0].choices.items():
        opts = {o for a in sub._actions for o in a.option_strings if o.startswith("--")}
        assert opts <= _complete(bash_script, ["robomaze", name, "--"]), name


def test_completion_command_prints_the_scripts(capsys):
    assert main(["completion", "bash"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# bash completion") and "complete -o default -F _robomaze robomaze" in out
    assert subprocess.run(["bash", "-n"], input=out, text=True).returncode == 0
    assert main(["completion", "zsh"]) == 0
    z = capsys.readouterr().out
    assert z.startswith("#compdef robomaze") and "bashcompinit" in z
    with pytest.raises(SystemExit) as exc:   # argparse's choices: one line, exit 2
        main(["completion", "fish"])
    assert exc.value.code == 2 and "choose from 'bash', 'zsh'" in capsys.readouterr().err


def test_bench_help_usage_lists_export(capsys):
    with pytest.raises(SystemExit):
        main(["bench", "--help"])
    usage = capsys.readouterr().out.split("\n\n")[0]
    assert "export DIR" in usage
