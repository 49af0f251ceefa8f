"""The typing memos (robomaze._compile.typing_memo) give numba's own answers.

Every kept signature is checked against numba's resolution run again
without the memo, and kernels typed in a process without the memos
(``ROBOMAZE_TYPING_MEMO=0``) get the same type for every variable.
"""

import json
import os
import subprocess
import sys
import textwrap

import numpy as np
from numba import njit
from numba.core import compiler, targetconfig
from numba.core.types import functions

from robomaze._compile import typing_memo

_KERNELS = textwrap.dedent('''
    import json, sys
    import numpy as np
    from numba import njit

    @njit
    def mixed(a, n, x):
        s = 0.0
        u = np.uint64(n)
        k = np.int32(0)
        for i in range(n):
            s += a[i] * x + (i >> 1) - abs(i - 3)
            k += np.int32(i & 3)
            if np.uint64(i) < u and a[i] >= x:
                s = max(s, a[i]) if i % 2 else min(s, -a[i])
        out = np.empty(n, np.int32)
        for i in range(n):
            out[i] = k + i
        return s, out, u // np.uint64(3)

    @njit
    def again(b, m):
        t = 0
        for i in range(m):
            t += (b[i] + 1) * 2 - (i >> 1)
        return t, np.empty(m, np.int32), np.uint64(m) // np.uint64(3)

    mixed(np.arange(6.0), 6, 1.5)
    again(np.arange(4), 4)
    out = {}
    for f in (mixed, again):
        for sig, res in f.overloads.items():
            tm = res.type_annotation.typemap
            out[f.__name__ + str(sig)] = {k: str(v) for k, v in tm.items()}
    print(json.dumps(out, sort_keys=True))
''')


def _typemaps(memo: bool) -> dict:
    env = dict(os.environ, ROBOMAZE_TYPING_MEMO="1" if memo else "0")
    code = "import robomaze, numba\n" + _KERNELS
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_kernels_typed_with_and_without_the_memos_get_the_same_types():
    with_memo, without = _typemaps(True), _typemaps(False)
    assert with_memo == without
    assert len(with_memo) == 2 and all(len(tm) > 20 for tm in with_memo.values())


def test_the_memos_are_installed_once_and_can_be_switched_off():
    import numba

    assert typing_memo.install() is typing_memo.verified(numba.__version__)
    if not typing_memo.verified(numba.__version__):
        return                           # an unchecked numba types as it ships
    assert hasattr(functions.Function.get_call_type, "__wrapped__")
    assert hasattr(targetconfig.TargetConfig.values, "__wrapped__")
    code = ("import os, robomaze, numba; from numba.core.types import functions;"
            "print(hasattr(functions.Function.get_call_type, '__wrapped__'))")
    env = dict(os.environ, ROBOMAZE_TYPING_MEMO="0")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, check=True)
    assert out.stdout.strip() == "False"


def test_every_kept_signature_is_what_numba_resolves_again():
    @njit
    def k(a, n):
        s = 0
        for i in range(n):
            s += a[i] * 3 - (i >> 1)
        return s, np.uint64(s) + np.uint64(1)

    k(np.arange(5), 5)
    before = typing_memo.stats()
    k(np.arange(5.0), 5)                 # same integer ops again: memo hits
    assert typing_memo.stats()["hits"] > before["hits"]
    from numba.core.registry import cpu_target

    ctx = cpu_target.typing_context
    resolve = functions.Function.get_call_type.__wrapped__
    assert typing_memo._MEMO
    for (fnty, args, kws), (context, sig) in list(typing_memo._MEMO.items()):
        assert context is ctx
        again = resolve(fnty, ctx, args, dict(kws))
        assert again == sig and again.return_type == sig.return_type
        # a plain template matched: its implementation key is the function's
        assert fnty._impl_keys[sig.args] is fnty.typing_key


def test_flag_values_are_the_options_values():
    flags = compiler.Flags()
    flags.no_cpython_wrapper = True
    flags.error_model = "numpy"
    slow = targetconfig.TargetConfig.values.__wrapped__
    assert flags.values() == slow(flags)
    assert flags.values()["no_cpython_wrapper"] is True
    assert flags.values()["nrt"] == compiler.Flags.options["nrt"].default
    other = compiler.Flags(flags)
    assert other == flags and hash(other) == hash(flags)
    other.error_model = "python"
    assert other != flags
