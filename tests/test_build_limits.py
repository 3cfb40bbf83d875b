"""The lesson build's limits and failures, each one clear line: a cell's output too large
for a page, a page over its budget naming the cell with the most output, a full disk naming
the file being written in --out (never the copy's source in the cache)."""

from __future__ import annotations

import errno
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import nbformat
import pytest

import mtg_rulekit.export as export
from mtg_rulekit.export import budget_warning, main, write_error
from mtg_rulekit.export.lesson import MAX_CELL_OUTPUT, heaviest_output, output_sizes
from tests.helpers import write_notebook

FULL = Path("/dev/full")  # every write to it fails with ENOSPC: a full disk, for real


def executed(*outputs: str) -> nbformat.NotebookNode:
    """A notebook as nbclient leaves it: one code cell per text printed."""
    cells = [nbformat.v4.new_markdown_cell("# A lesson")]
    for i, text in enumerate(outputs):
        cell = nbformat.v4.new_code_cell(f"print(part_{i})")
        cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=text)]
        cells.append(cell)
    return nbformat.v4.new_notebook(cells=cells)


def test_a_cell_over_the_output_limit_fails_its_lesson_by_name():
    nb = executed("small\n", "x" * (MAX_CELL_OUTPUT + 1), "y" * 1000)
    words, error = heaviest_output(nb, "notebooks/93_big.ipynb")
    assert words == "cell 3 (`print(part_1)`), 10.0 MB of output"
    assert error == ("notebooks/93_big.ipynb: cell 3 (`print(part_1)`): its output is 10.0 MB, "
                     "over the 10 MB a lesson page may carry (the page holds all of it): print "
                     "less, or clear that output")
    assert [i for i, _ in output_sizes(nb)] == [2, 3, 1]


def test_images_and_widget_views_count_as_output():
    nb = executed("hi\n")
    nb.cells[1].outputs.append(nbformat.v4.new_output(
        "display_data", data={"image/png": "A" * 5000,
                              "application/vnd.jupyter.widget-view+json": {"model_id": "m"}}))
    assert output_sizes(nb)[0][1] > 5000
    assert heaviest_output(nb, "x.ipynb")[1] == ""  # under the limit: no error


def test_a_page_over_budget_names_the_cell_with_the_most_output():
    words, _ = heaviest_output(executed("x" * 3 * 1024 * 1024), "n.ipynb")
    warning = budget_warning("93_big", 3 * 1024 * 1024 + 5, heaviest=words)
    assert warning == ("lesson 93_big: the page is 3.0 MB, over the 1.5 MB page budget (most of "
                       "it: cell 2 (`print(part_0)`), 3.0 MB of output): it loads slowly in a "
                       "classroom")
    assert budget_warning("small", 1000, heaviest=words) is None


@contextmanager
def tiny_disk(folder: Path) -> Iterator[Path]:
    """A 64 KB tmpfs at `folder` (root can mount one: the review's 3 MB tmpfs as --out)."""
    folder.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(folder)],
                      capture_output=True).returncode:
        pytest.skip("can't mount a tmpfs here (not root)")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=True)


def test_a_full_out_names_the_file_being_written_not_its_source(tmp_path, monkeypatch, capsys):
    """A copy from the cache into a full --out: the system's error names both files; the
    message names the one being written."""
    source = tmp_path / "cache" / "embed.js"
    source.parent.mkdir()
    source.write_text("x" * 200_000)
    with tiny_disk(tmp_path / "site") as out:
        (out / "_static").mkdir()
        target = out / "_static" / "embed.js"
        with pytest.raises(OSError) as err:
            shutil.copyfile(source, target)
        assert err.value.errno == errno.ENOSPC and err.value.filename == str(source)
        assert write_error(err.value, out) == f"can't write {target}: No space left on device"

        def full_disk(*_a: object, **_k: object) -> None:
            shutil.copyfile(source, target)
        monkeypatch.setattr(export, "build", full_disk)
        nbs = tmp_path / "nbs"
        nbs.mkdir()
        assert main(["--notebooks", str(nbs), "--out", str(out)]) == 2
    line = capsys.readouterr().err.strip().splitlines()[-1]
    assert line == f"mtg_rulekit.export: can't write {target}: No space left on device"


@pytest.mark.skipif(not FULL.exists(), reason="no /dev/full here")
def test_a_write_the_system_names_no_file_for_names_out(tmp_path):
    with pytest.raises(OSError) as err, open(FULL, "w") as full:
        full.write("x" * 100_000)
        full.flush()
    assert err.value.errno == errno.ENOSPC and err.value.filename is None
    assert write_error(err.value, tmp_path / "site") == \
        f"can't write {tmp_path / 'site'}: No space left on device"


@pytest.mark.notebook
def test_a_lesson_printing_more_than_a_page_carries_fails_by_name(tmp_path, capsys):
    nbs = tmp_path / "nbs"
    write_notebook(nbs, "93_big", "Big", f"print('x' * {MAX_CELL_OUTPUT + 1024})")
    code = main(["--notebooks", str(nbs), "--out", str(tmp_path / "site"), "--cache",
                 str(tmp_path / "cache"), "--widgets", "cdn", "--sandbox", "off"])
    err = capsys.readouterr().err
    assert code == 1
    assert f"93_big.ipynb: cell 2 (`print('x' * {MAX_CELL_OUTPUT + 1024})`): its output is 10.0 " \
           "MB, over the 10 MB a lesson page may carry" in err
    assert not (tmp_path / "site" / "93_big.html").exists()
