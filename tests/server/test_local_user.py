"""Another local user gets nothing of the owner's through the HTTP server or the index files.

The reference serves on loopback, where every local account can connect: the owner's bearer token (on by
default) and owner-only index files are what keep a 0600 source file private. The test creates a second
account (root only) and probes as that account with the system's own Python (stdlib, no repo import).
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from .harness import FIXTURES, connect_http

PROBE = Path(__file__).with_name("local_user_probe.py")
SYSTEM_PYTHON = "/usr/bin/python3"  # the other account cannot enter the owner's own interpreter's home


@pytest.fixture
def other_user() -> Iterator[tuple[int, int]]:
    """(uid, gid) of a throw-away local account, removed afterwards."""
    if os.geteuid() != 0:
        pytest.skip("creating a second local account needs root (useradd)")
    if not shutil.which("useradd") or not shutil.which("setpriv"):
        pytest.skip("useradd or setpriv is not installed")
    if not os.access(SYSTEM_PYTHON, os.X_OK):
        pytest.skip(f"no system Python at {SYSTEM_PYTHON} for the second account to run")
    name = f"cgprobe{secrets.token_hex(3)}"
    subprocess.run(["useradd", "--no-create-home", "--shell", "/usr/sbin/nologin", name], check=True, timeout=30)
    try:
        import pwd

        entry = pwd.getpwnam(name)
        yield entry.pw_uid, entry.pw_gid
    finally:
        subprocess.run(["userdel", name], check=False, timeout=30)


@pytest.fixture
def shared_workspace() -> Iterator[tuple[Path, Path, str]]:
    """(workspace, its 0600 file, the file's marker): a workspace other accounts may enter, as a home is."""
    base = Path(tempfile.mkdtemp(prefix="cruxgate-localuser-"))
    try:
        base.chmod(0o755)
        workspace = base / "ws"
        shutil.copytree(FIXTURES / "polyglot", workspace, ignore=shutil.ignore_patterns(".cruxgate"))
        for path in [workspace, *workspace.rglob("*")]:
            path.chmod(0o755 if path.is_dir() else 0o644)
        marker = f"VAULT_MARKER_{secrets.token_hex(8)}"
        secret = workspace / "vault.py"
        secret.write_text(f'VAULT_MARKER = "{marker}"\n\n\ndef open_vault():\n    return VAULT_MARKER\n')
        secret.chmod(0o600)
        # A usual shell's umask: the indexer must make its files private by itself.
        env = {**os.environ, "PYTHONPATH": os.environ.get("PYTHONPATH", "")}
        subprocess.run(["sh", "-c", 'umask 022 && exec "$0" -m cruxgate index "$1" --quiet', sys.executable,
                        str(workspace)], check=True, timeout=300, env=env)
        yield workspace, secret, marker
    finally:
        shutil.rmtree(base, ignore_errors=True)


def probe(uid: int, gid: int, url: str, workspace: Path, secret: Path) -> dict:
    """Run the probe as (uid, gid) and read its findings."""
    script = workspace.parent / "probe.py"
    shutil.copy(PROBE, script)
    script.chmod(0o644)
    done = subprocess.run(["setpriv", f"--reuid={uid}", f"--regid={gid}", "--clear-groups", SYSTEM_PYTHON,
                           str(script), url, str(workspace), str(secret)],
                          capture_output=True, text=True, timeout=120, env={"PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_another_local_user_reads_nothing_of_the_owner(other_user: tuple[int, int],
                                                       shared_workspace: tuple[Path, Path, str]) -> None:
    workspace, secret, marker = shared_workspace
    uid, gid = other_user
    owner = connect_http(workspace)  # default options: loopback, token on
    try:
        found, _ = owner.payload("search_code", {"query": "VAULT_MARKER", "detail_level": "context"})
        assert marker in json.dumps(found), "the owner, with the token, finds the file (the probe is meaningful)"
        seen = probe(uid, gid, owner.wire.url or "", workspace, secret)
    finally:
        owner.close()
    assert seen["uid"] == uid
    assert not seen["secret_file_readable"]  # the file itself is private: the precondition of the case
    assert seen["initialize"] == 401, seen
    assert marker not in seen["bodies"], "the 0600 file's text reached another user through the server"
    assert "index_repo" not in seen, "another user got past the handshake"
    assert seen["state_listed"] is None, "another user can list the index folder"
    assert seen["index_files_readable"] == [] and not seen["database_readable"], \
        f"another user can read index files (they store the source text): {seen['index_files_readable'][:5]}"
    modes = {path: path.stat().st_mode & 0o777 for path in [workspace / ".cruxgate",
                                                            *(workspace / ".cruxgate").rglob("*")]}
    assert {oct(mode) for path, mode in modes.items() if mode & 0o077} == set(), "index files are not owner-only"
