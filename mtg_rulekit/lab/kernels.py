"""How rulekit starts Jupyter kernels (lesson builds, notebook tests, `make lab`).

Kernels talk to their client over local IPC sockets instead of TCP on 127.0.0.1: no other
program can connect to a port by guessing it, and ipykernel no longer warns "Kernel is running
over TCP without encryption" for every kernel (its own advice: "Use IPC transport"). An IPC
kernel's sockets are named after its connection file, so each kernel gets an absolute connection
file path of its own (jupyter_server already does this; nbclient does not). Windows has no IPC
sockets and keeps TCP.
"""

from __future__ import annotations

import os
import tempfile
import uuid

from jupyter_client.manager import AsyncKernelManager
from traitlets import default

__all__ = ["TRANSPORT", "IPCKernelManager", "kernel_config", "lab_arguments"]

TRANSPORT = "ipc" if os.name == "posix" else "tcp"


class IPCKernelManager(AsyncKernelManager):
    """An `AsyncKernelManager` (nbclient's) on IPC sockets beside a connection file of its own."""

    @default("transport")
    def _default_transport(self) -> str:
        return TRANSPORT

    @default("connection_file")
    def _default_connection_file(self) -> str:
        return os.path.join(tempfile.gettempdir(), f"rulekit-kernel-{uuid.uuid4().hex}.json")


def kernel_config() -> dict[str, object]:
    """Keyword arguments for `nbclient.NotebookClient`: its kernels use `IPCKernelManager`."""
    return {"kernel_manager_class": IPCKernelManager}


def lab_arguments() -> list[str]:
    """`jupyter lab` options for the same transport (the server names each kernel's connection
    file itself; `make lab` passes the same option)."""
    return [f"--KernelManager.transport={TRANSPORT}"]
