"""axe-core, the accessibility checker the browser tests run on every lesson page: fetched from
the npm registry (`npm pack`), pinned by version and by the registry's sha512 integrity, and
cached outside the git checkout, exactly as the widget bundle is (`mtg_rulekit.export.assets`).

    >>> from mtg_rulekit.export.axe import VERSION
    >>> VERSION
    '4.14.1'

It is a test tool: the pages never load it. `axe_source()` returns `axe.min.js`'s text, which a
test evaluates in a page (`page.evaluate(...)`: the page's security policy refuses an added
`<script>`) before calling `axe.run()`.
"""

from __future__ import annotations

import tarfile
from pathlib import Path

from mtg_rulekit.export.assets import cache_dir
from mtg_rulekit.export.npm import AssetError, integrity_of, npm_pack, verified_tarball

PACKAGE = "axe-core"
VERSION = "4.14.1"
# `npm view axe-core@4.14.1 dist.integrity`
INTEGRITY = ("sha512-FHfa+lmNjQZfJz1q8wKqIDwC6DExcHt/pkjNQb09a3NPjCKg2rhu5qb2S4r76ASyFNNtuFooJpZe37O"
             "gudVGtQ==")
TARBALL = f"axe-core-{VERSION}.tgz"

__all__ = ["INTEGRITY", "PACKAGE", "VERSION", "axe_source", "fetch"]


def _npm_pack(dest: Path) -> Path:
    """`npm pack` the pinned axe-core into `dest` (see `mtg_rulekit.export.npm`)."""
    return npm_pack(PACKAGE, VERSION, dest)


def fetch(cache: Path | None = None) -> Path:
    """The path of the pinned, verified `axe.min.js` (fetched with npm the first time).
    Raises OSError / RuntimeError when npm can't fetch it, AssetError when what npm gave is
    not the pinned package."""
    cache = cache or cache_dir()
    tarball = cache / "npm" / TARBALL
    script = cache / f"axe-core-{VERSION}" / "axe.min.js"
    ok = tarball.is_file() and integrity_of(tarball.read_bytes()) == INTEGRITY
    if ok and script.is_file():
        return script
    if not ok:
        tarball = verified_tarball(PACKAGE, VERSION, INTEGRITY, cache / "npm",
                                   lambda d: _npm_pack(d))
    with tarfile.open(tarball, "r:gz") as tar:
        member = tar.extractfile("package/axe.min.js")
        if member is None:
            raise AssetError(f"{TARBALL} has no axe.min.js")
        data = member.read()
    script.parent.mkdir(parents=True, exist_ok=True)
    tmp = script.with_suffix(".tmp")
    tmp.write_bytes(data)
    tmp.replace(script)
    return script


def axe_source(cache: Path | None = None) -> str:
    return fetch(cache).read_text("utf-8")
