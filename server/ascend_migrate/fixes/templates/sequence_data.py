"""torch's DataLoader with a collate_fn, and random_split, over a Python sequence (a list, a part of a split, a
map-style dataset class: anything with len() and [i]), written into a program by the MindSpore route's fix
(issue 17: pytorch/tutorials' text classifier batches a list of (label, token ids) pairs of varying length with a
collate_fn that builds (text, offsets, label), over the parts of random_split).

Why classes in the program and not a mindspore.dataset pipeline: a pipeline hands GeneratorDataset's items and
batch(per_batch_map=...)'s columns over as NumPy arrays, one column at a time, while a collate_fn takes the list
of samples as the dataset returns them (MindSpore tensors after the fix, tuples, ints) and returns what the
training loop unpacks; so the batches are made here, in the program's own process, as torch makes them without
workers. num_workers, pin_memory and persistent_workers change speed, not values: accepted and not used.

Both classes use nothing but numpy, which the fix imports. Shuffling and splitting draw from NumPy's global
random state, which mindspore.set_seed seeds (mindspore 2.10); a generator given to either seeds its own draws
(its initial_seed()). Neither can reproduce torch's order for the same seed. tests/execution/test_sequence_data.py
runs both beside torch's DataLoader and random_split.
"""

import numpy


class SequenceLoader:
    """torch's DataLoader(dataset, batch_size, shuffle, drop_last, collate_fn, generator) over a sequence, written
    by ascend-migrate: each batch is collate_fn([dataset[i] for i in the batch's indices]); a new order per iteration
    when shuffled (from NumPy's global state, or seeded once by a generator's initial_seed()); len() is the number of
    batches."""

    def __init__(self, dataset, batch_size=1, shuffle=False, *, collate_fn, drop_last=False, generator=None,
                 num_workers=0, pin_memory=False, persistent_workers=False):
        if not (hasattr(dataset, "__len__") and hasattr(dataset, "__getitem__")):
            raise TypeError(f"SequenceLoader reads a sequence (len() and [i]); got {type(dataset).__name__}")
        if not isinstance(batch_size, int) or batch_size < 1:
            raise ValueError(f"batch_size must be a positive int; got {batch_size!r}")
        self.dataset = dataset
        self.batch_size = batch_size
        self.shuffle = bool(shuffle)
        self.drop_last = drop_last
        self.collate_fn = collate_fn
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
