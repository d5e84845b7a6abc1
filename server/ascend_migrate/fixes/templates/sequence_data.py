"""torch's DataLoader and random_split over a Python sequence (a list, a part of a split, a map-style dataset class:
anything with len() and [i]), written into a program by the MindSpore route's fix (issue 17: pytorch/tutorials' text
classifier batches a list of (label, token ids) pairs of varying length with a collate_fn that builds (text,
offsets, label), over the parts of random_split; pytorch/examples' siamese_network batches a Dataset class of its
own, without a collate_fn, by torch's default collate).

Why classes in the program and not a mindspore.dataset pipeline: a pipeline hands GeneratorDataset's items and
batch(per_batch_map=...)'s columns over as NumPy arrays, one column at a time, while a collate_fn takes the list
of samples as the dataset returns them (MindSpore tensors after the fix, tuples, ints) and returns what the
training loop unpacks; so the batches are made here, in the program's own process, as torch makes them without
workers. num_workers, pin_memory and persistent_workers change speed, not values: accepted and not used.

Both classes use nothing but numpy, which the fix imports (SequenceLoader's default collate, for a loader without a
collate_fn, imports mindspore, copy and collections.abc where it runs). Shuffling and splitting draw from NumPy's global
random state, which mindspore.set_seed seeds (mindspore 2.10); a generator given to either seeds its own draws
(its initial_seed()). Neither can reproduce torch's order for the same seed. tests/execution/test_sequence_data.py
runs both beside torch's DataLoader and random_split.
"""

import numpy


class SequenceLoader:
    """torch's DataLoader(dataset, batch_size, shuffle, drop_last, collate_fn, generator) over a sequence, written
    by ascend-migrate: each batch is collate_fn([dataset[i] for i in the batch's indices]); a new order per iteration
    when shuffled (from NumPy's global state, or seeded once by a generator's initial_seed()); len() is the number of
    batches. Without a collate_fn, torch's default_collate (torch 2.13) for MindSpore values: `default_collate`."""

    def __init__(self, dataset, batch_size=1, shuffle=False, *, collate_fn=None, drop_last=False, generator=None,
                 num_workers=0, pin_memory=False, persistent_workers=False):
        if not (hasattr(dataset, "__len__") and hasattr(dataset, "__getitem__")):
            raise TypeError(f"SequenceLoader reads a sequence (len() and [i]); got {type(dataset).__name__}")
        if not isinstance(batch_size, int) or batch_size < 1:
            raise ValueError(f"batch_size must be a positive int; got {batch_size!r}")
        self.dataset = dataset
        self.batch_size = batch_size
        self.shuffle = bool(shuffle)
        self.drop_last = drop_last
        self.collate_fn = self.default_collate if collate_fn is None else collate_fn
        # a generator's seed makes the orders repeatable run to run (one draw per iteration, as torch's)
        self.random = numpy.random if generator is None else numpy.random.RandomState(generator.initial_seed() % 2 ** 32)

    def __len__(self):
        size = len(self.dataset)
        return size // self.batch_size if self.drop_last else -(-size // self.batch_size)

    def __iter__(self):
        size = len(self.dataset)
        order = self.random.permutation(size).tolist() if self.shuffle else range(size)
        for start in range(0, len(self) * self.batch_size, self.batch_size):
            yield self.collate_fn([self.dataset[index] for index in order[start:start + self.batch_size]])

    def default_collate(self, batch):
        """torch's default_collate (torch/utils/data/_utils/collate.py, torch 2.13) with MindSpore tensors: tensors
        stacked (mindspore.ops.stack), NumPy arrays stacked into a tensor of their dtype, NumPy scalars of one
        dtype into a tensor of it, ints into int64 (bools into bool), floats into float64; strings and bytes stay a
        list; dicts key by key (the first sample's mapping type kept), namedtuples field by field, tuples into a
        list and lists field by field. Anything else, or a mix torch would promote, raises TypeError."""
        # imported here: the class is written into the program whole, and only this default needs them
        import collections.abc
        import copy

        import mindspore

        sample = batch[0]
        kind = type(sample)
        if isinstance(sample, mindspore.Tensor):
            return mindspore.ops.stack(list(batch), 0)
        if isinstance(sample, numpy.ndarray):
            if any(letter in sample.dtype.str for letter in "SaUO"):  # torch refuses strings and objects too
                raise TypeError(f"default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; "
                                f"found {sample.dtype}")
            return mindspore.Tensor(numpy.stack(batch))
        if isinstance(sample, (numpy.bool_, numpy.number)) and all(type(item) is kind for item in batch):
            return mindspore.Tensor(numpy.asarray(batch))
        if isinstance(sample, float) and not isinstance(sample, numpy.generic) and all(
                isinstance(item, (int, float)) and not isinstance(item, numpy.generic) for item in batch):
            return mindspore.Tensor(numpy.asarray(batch, dtype=numpy.float64))
        if isinstance(sample, int) and not isinstance(sample, numpy.generic):
            if all(type(item) is bool for item in batch):
                return mindspore.Tensor(numpy.asarray(batch, dtype=numpy.bool_))
            if all(isinstance(item, int) and not isinstance(item, numpy.generic) for item in batch):
                return mindspore.Tensor(numpy.asarray(batch, dtype=numpy.int64))
        if isinstance(sample, (str, bytes)):
            return batch
        if isinstance(sample, collections.abc.Mapping):
            fields = {key: self.default_collate([item[key] for item in batch]) for key in sample}
            try:
                if isinstance(sample, collections.abc.MutableMapping):
                    clone = copy.copy(sample)
                    clone.update(fields)
                    return clone
                return kind(fields)
            except TypeError:
                return fields
        if isinstance(sample, tuple) and hasattr(sample, "_fields"):  # a namedtuple
            return kind(*(self.default_collate([item[field] for item in batch]) for field in range(len(sample))))
        if isinstance(sample, collections.abc.Sequence) and not isinstance(sample, (str, bytes)):
            if any(len(item) != len(sample) for item in batch):
                raise RuntimeError("each element in list of batch should be of equal size")
            columns = [self.default_collate([item[field] for item in batch]) for field in range(len(sample))]
            if isinstance(sample, tuple):
                return columns  # torch returns a list for tuples (its "backwards compatibility")
            try:
                if isinstance(sample, collections.abc.MutableSequence):
                    copied = copy.copy(sample)
                    for position, column in enumerate(columns):
                        copied[position] = column
                    return copied
                return kind(columns)
            except TypeError:
                return columns
        raise TypeError(f"SequenceLoader's default collate (torch's default_collate) takes MindSpore tensors, NumPy "
                        f"arrays and scalars of one dtype, ints, floats, bools, strings and dicts, tuples and lists of "
                        f"them; got a sample of type {kind.__module__}.{kind.__qualname__} in a batch of "
                        f"{sorted({type(item).__qualname__ for item in batch})}")


class RandomSplit(list):
    """torch's random_split(dataset, lengths, generator=None) over a sequence, written by ascend-migrate: the parts
    in a list (unpack it as torch's), each with len(), [i], .dataset and .indices as torch's Subset. lengths are
    counts that sum to len(dataset), or fractions that sum to 1 (torch >= 1.13: each part gets the floor of its
    share, and the remainder goes one by one to the parts in order)."""

    class Part:
        """One part of a RandomSplit: the items of `dataset` at `indices`."""

        def __init__(self, dataset, indices):
            self.dataset = dataset
            self.indices = indices

        def __getitem__(self, index):
            if isinstance(index, list):
                return [self.dataset[self.indices[position]] for position in index]
            return self.dataset[self.indices[index]]

        def __len__(self):
            return len(self.indices)

    def __init__(self, dataset, lengths, generator=None):
        super().__init__()
        size = len(dataset)
        lengths = list(lengths)
        if lengths and abs(sum(lengths) - 1) < 1e-9 and sum(lengths) <= 1:
            for position, fraction in enumerate(lengths):
                if not 0 <= fraction <= 1:
                    raise ValueError(f"Fraction at index {position} is not between 0 and 1")
            counts = [int(numpy.floor(size * fraction)) for fraction in lengths]
            for position in range(size - sum(counts)):
                counts[position % len(counts)] += 1
            lengths = counts
        if sum(lengths) != size:
            raise ValueError(f"Sum of input lengths ({sum(lengths)}) does not equal the length of the input dataset ({size})")
        if generator is None:
            order = numpy.random.permutation(size).tolist()
        else:
            order = numpy.random.RandomState(generator.initial_seed() % 2 ** 32).permutation(size).tolist()
        start = 0
        for length in lengths:
            self.append(self.Part(dataset, order[start:start + length]))
            start += length
