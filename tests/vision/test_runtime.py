"""Reading fast: the crop models' batches split among the cores (`vision.runtime.CropModel`)
and the rows' cheaper median (`vision.rows.median`)."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from vision.classify import DEFAULT_MODEL
from vision.orient import DEFAULT_MODEL as ORIENTATION_MODEL
from vision.runtime import CORES, CropModel, open_session


@pytest.mark.parametrize("path", [DEFAULT_MODEL, ORIENTATION_MODEL])
@pytest.mark.parametrize("n", [1, 2, 7])
def test_a_split_batch_reads_as_one_run_bit_for_bit(path, n: int) -> None:
    """Each core reads its part of the batch on one thread; the tiles must read exactly as
    one run of the whole batch on both cores reads them, or the split would move names."""
    x = np.random.default_rng(n).normal(0, 1.5, (n, 3, 64, 64)).astype(np.float32)
    whole = open_session(path, "test")
    expected = whole.run(None, {whole.get_inputs()[0].name: x})[0]
    got = CropModel(path, "test").run(x)
    assert got.shape == expected.shape
    assert np.array_equal(got, expected)


def test_many_readings_at_once_keep_to_the_cores() -> None:
    """A hall's tablets read at once: every reading's crop models share one pool of CORES
    threads rather than each taking the machine's cores again."""
    models = [CropModel(DEFAULT_MODEL, "test"), CropModel(ORIENTATION_MODEL, "test")]
    x = np.zeros((8, 3, 64, 64), np.float32)
    readers = [threading.Thread(target=models[k % 2].run, args=(x,)) for k in range(6)]
    for t in readers:
        t.start()
    for t in readers:
        t.join()
    pool = [t for t in threading.enumerate() if t.name.startswith("crop-model")]
    assert 1 <= len(pool) <= CORES


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64])
def test_the_rows_median_is_numpys_number(dtype) -> None:
    """The rows take a median around every tile of a table with `rows.median`, a cheaper
    way to numpy's: it must give numpy's very number and type, or rows would split and
    tiles read otherwise than the thresholds were set for."""
    from vision.rows import median

    rng = np.random.default_rng(7)
    for n in range(1, 30):
        for _ in range(20):
            values = rng.normal(0, 50, n).astype(dtype)
            expected, got = np.median(values), median(values)
            assert got == expected and type(got) is type(expected)
    sorted_even = np.array([1.0, 2.0, 4.0, 8.0], dtype)
    assert median(sorted_even) == 3
