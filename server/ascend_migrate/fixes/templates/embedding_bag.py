"""torch.nn.EmbeddingBag for MindSpore, written into a program by the MindSpore route's fix (MS237): mindspore 2.10 has
no embedding bag (mindspore.nn, ops, mint searched), and torch's layer left in a Cell fails on MindSpore tensors.

The class takes torch 2.13's constructor and forward(input, offsets=None, per_sample_weights=None), so the fix changes
only the name called; its parameter is `weight` as torch's (checkpoints, `weights convert` and `.weight.set_data`
reach it). The computation is torch's: a 1-D input cut into bags at `offsets` (`include_last_offset`: offsets ends
with the input's length, CSR style) or a 2-D input whose rows are bags; mode sum, mean or max; rows equal to
`padding_idx` left out of their bag (mean divides by the other rows; that row starts at zero); `per_sample_weights`
(mode sum only, as torch); an empty bag gives zeros. The computation is the static method `embedding_bag`, with
torch's nn.functional.embedding_bag parameters, which a fixed `F.embedding_bag(input, weight, ...)` calls (MS238).
tests/execution/test_embedding_bag.py runs both beside torch's, weights copied: outputs and gradients within 1e-5 in
float32.

What torch does and this class does not: `max_norm` (torch renormalises the looked-up rows of the weight in place)
and `scale_grad_by_freq` raise ValueError here (the rule leaves such a construction as advice and says why);
`sparse=True` is accepted and gives the same gradient values dense (torch's sparse gradient is a memory optimisation;
mindspore's optimizers take dense gradients; with mode max it raises, as torch's). Where the weight has two equal largest values in a bag (mode max) the
gradient is shared between their rows (torch gives it to one). With include_last_offset, rows after offsets[-1] are
left out of every bag (torch's documented input has offsets[-1] equal to the input's length; otherwise its sum leaves
them out too, and its mean and max are undefined).

Only mindspore.ops functions with CPU kernels in mindspore 2.10 are used (gather, searchsorted,
unsorted_segment_sum, unsorted_segment_max), none of them from mint, so the class runs in both eras. The written
class uses nothing but the `mindspore` package, which the fix imports.
"""

import mindspore


class EmbeddingBag(mindspore.nn.Cell):
    """torch's nn.EmbeddingBag, written by ascend-migrate (mindspore 2.10 has none). construct(input, offsets=None,
    per_sample_weights=None) -> one row per bag; see fixes/templates/embedding_bag.py in ascend-migrate for what
    differs from torch (max_norm and scale_grad_by_freq are not written; sparse gradients are dense)."""

    def __init__(self, num_embeddings, embedding_dim, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
                 mode="mean", sparse=False, _weight=None, include_last_offset=False, padding_idx=None, device=None,
                 dtype=None):
        super().__init__()
        if max_norm is not None:
            raise ValueError("EmbeddingBag: max_norm is not written (torch renormalises the looked-up rows of the "
                             "weight in place); leave it out, or renormalise the weight yourself")
        if scale_grad_by_freq:
            raise ValueError("EmbeddingBag: scale_grad_by_freq is not written (torch scales each row's gradient by "
                             "the inverse of its count in the batch)")
        if mode not in ("sum", "mean", "max"):
            raise ValueError(f"EmbeddingBag: mode has to be one of sum, mean or max, got {mode!r}")
        if mode == "max" and sparse:
            raise ValueError("max mode does not support sparse weights")  # torch raises it at the first call
        if padding_idx is not None:
            if not -num_embeddings <= padding_idx < num_embeddings:
                raise ValueError("EmbeddingBag: padding_idx must be within num_embeddings")
            padding_idx = padding_idx % num_embeddings
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        self.max_norm = max_norm
        self.norm_type = norm_type
        self.scale_grad_by_freq = scale_grad_by_freq
        self.mode = mode
        self.sparse = sparse  # accepted: the gradient is dense, with the same values
        self.include_last_offset = include_last_offset
        self.padding_idx = padding_idx
        if _weight is None:
            dtype = mindspore.float32 if dtype is None else dtype
            # torch draws every row from N(0, 1) and zeroes the padding row
            weight = mindspore.common.initializer.initializer(
                mindspore.common.initializer.Normal(1.0), (num_embeddings, embedding_dim), dtype).init_data()
            if padding_idx is not None:
                kept = mindspore.ops.arange(num_embeddings) != padding_idx
                weight = weight * kept.astype(dtype).reshape(-1, 1)
        else:
            if tuple(_weight.shape) != (num_embeddings, embedding_dim):
                raise ValueError("EmbeddingBag: shape of weight does not match num_embeddings and embedding_dim")
            weight = _weight if isinstance(_weight, mindspore.Tensor) else mindspore.Tensor(_weight)
        self.weight = mindspore.Parameter(weight)

    @classmethod
    def from_pretrained(cls, embeddings, freeze=True, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
                        mode="mean", sparse=False, include_last_offset=False, padding_idx=None):
        """torch's EmbeddingBag.from_pretrained: the rows given (the padding row as given), frozen unless freeze=False."""
        if embeddings.ndim != 2:
            raise ValueError("EmbeddingBag.from_pretrained: embeddings parameter is expected to be 2-dimensional")
        rows, columns = embeddings.shape
        bag = cls(rows, columns, max_norm=max_norm, norm_type=norm_type, scale_grad_by_freq=scale_grad_by_freq,
                  mode=mode, sparse=sparse, _weight=embeddings, include_last_offset=include_last_offset,
                  padding_idx=padding_idx)
        bag.weight.requires_grad = not freeze
        return bag

    def construct(self, input, offsets=None, per_sample_weights=None):
        return self.embedding_bag(input, self.weight, offsets, mode=self.mode, sparse=self.sparse,
                                  per_sample_weights=per_sample_weights, include_last_offset=self.include_last_offset,
                                  padding_idx=self.padding_idx)

    @staticmethod
    def embedding_bag(input, weight, offsets=None, max_norm=None, norm_type=2, scale_grad_by_freq=False, mode="mean",
                      sparse=False, per_sample_weights=None, include_last_offset=False, padding_idx=None):
        """torch's nn.functional.embedding_bag (the same parameters): one row per bag of `weight`'s rows."""
        ops = mindspore.ops
        if max_norm is not None or scale_grad_by_freq:
            raise ValueError("embedding_bag: max_norm and scale_grad_by_freq are not written")
        if mode not in ("sum", "mean", "max"):
            raise ValueError("mode has to be one of sum, mean or max")
        if mode == "max" and sparse:
            raise ValueError("max mode does not support sparse weights")
        if padding_idx is not None and padding_idx < 0:
            raise ValueError("embedding_bag: a negative padding_idx is not written (torch's functional takes -1 as "
                             "none); pass num_embeddings + padding_idx")
        if per_sample_weights is not None and tuple(input.shape) != tuple(per_sample_weights.shape):
            raise ValueError(f"embedding_bag: If per_sample_weights ({per_sample_weights.shape}) is not None, then it "
                             f"must have the same shape as the input ({input.shape})")
        if weight.ndim != 2:
            raise ValueError(f"weight has to be a 2D Tensor, but got Tensor of dimension {weight.ndim}")
        if input.ndim == 2:
            if offsets is not None:
                raise ValueError("if input is 2D, then offsets has to be None, as input is treated is a mini-batch of "
                                 "fixed length sequences")
            bags, length = input.shape
            input = input.reshape(-1)
            bag_ids = ops.arange(bags * length, dtype=mindspore.int64) // max(length, 1)
        elif input.ndim == 1:
            if offsets is None or offsets.ndim != 1:
                raise ValueError("offsets has to be a 1D Tensor but got "
                                 f"{None if offsets is None else f'a {offsets.ndim}D Tensor'}")
            bags = offsets.shape[0] - 1 if include_last_offset else offsets.shape[0]
            if offsets.shape[0] and int(offsets[0]) != 0:
                raise ValueError(f"offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start "
                                 f"from position 0. However, got {int(offsets[0])}")
            if offsets.shape[0] and int(offsets[-1]) > input.shape[0]:
                raise ValueError(f"offsets[-1] can not be greater than input's length {input.shape[0]} but got "
                                 f"offsets[-1] of {int(offsets[-1])}")
            positions = ops.arange(input.shape[0], dtype=offsets.dtype)
            # the bag of each row: the last offset at or before it (a row after offsets[-1] with
            # include_last_offset gets `bags`, the segment that is dropped)
            bag_ids = (ops.searchsorted(offsets, positions, right=True) - 1).astype(mindspore.int64)
        else:
            raise ValueError(f"input has to be 1D or 2D Tensor, but got Tensor of dimension {input.ndim}")
        if per_sample_weights is not None and mode != "sum":
            raise NotImplementedError("embedding_bag: per_sample_weights was not None. per_sample_weights is only "
                                      f"supported for mode='sum' (got mode='{mode}')")
        bags = max(bags, 0)
        if input.shape[0] == 0:
            return ops.zeros((bags, weight.shape[1]), weight.dtype)
        if padding_idx is not None:  # padding rows go to the dropped segment: out of the bag and of its count
            bag_ids = ops.where(input == padding_idx, ops.full_like(bag_ids, bags), bag_ids)
        rows = ops.gather(weight, input, 0)
        if per_sample_weights is not None:
            rows = rows * per_sample_weights.reshape(-1, 1)
        counts = ops.unsorted_segment_sum(ops.ones((input.shape[0], 1), rows.dtype), bag_ids, bags + 1)[:bags]
        if mode == "max":
            largest = ops.unsorted_segment_max(rows, bag_ids, bags + 1)[:bags]
            return ops.where(counts > 0, largest, ops.zeros_like(largest))  # an empty bag's max is the lowest float
        total = ops.unsorted_segment_sum(rows, bag_ids, bags + 1)[:bags]
        if mode == "mean":
            return total / ops.maximum(counts, ops.ones_like(counts))
        return total
