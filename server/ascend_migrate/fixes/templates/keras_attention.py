"""Keras' MultiHeadAttention as a MindSpore Cell, written into a program by the Keras fixes (issue 21) where
nn.MultiheadAttention cannot compute the layer: Keras projects query, key and value to num_heads x key_dim
(value: value_dim) and back to the query's size, nn.MultiheadAttention splits the query's size into its heads, so
it computes Keras' layer only when num_heads * key_dim is the query's size.

The computation follows keras 3.15.1 (keras/src/layers/attention/multi_head_attention.py, inputs of shape (batch,
steps, features), no mask): the query scaled by 1/sqrt(key_dim), scores = query . key over key_dim per head,
softmax over the keys, dropout on the weights while training, weights . value, the heads joined and projected to the
query's size. tools/keras_layer_check.py runs it side by side with Keras (weights copied) and records the result in
mappings/verification/keras_layers_numeric.yaml. Only ops/nn operators with CPU kernels in mindspore 2.10 are used.
"""

import mindspore


class KerasMultiHeadAttention(mindspore.nn.Cell):
    """Keras' MultiHeadAttention(num_heads, key_dim, value_dim, dropout, use_bias), called as Keras calls it:
    (query, value[, key]) of shape (batch, steps, size). Written by ascend-migrate; Keras' layer computes the same
    (its kernels are glorot-uniform drawn over 3-d kernel shapes, so the initial weights differ)."""

    def __init__(self, query_size, value_size, key_size, num_heads, key_dim, value_dim=None, dropout=0.0, use_bias=True):
        super().__init__()
        value_dim = key_dim if value_dim is None else value_dim
        self.num_heads, self.key_dim, self.value_dim = num_heads, key_dim, value_dim
        self.scale = 1.0 / float(key_dim) ** 0.5  # Keras: 1.0 / math.sqrt(key_dim)
        options = {"has_bias": use_bias, "weight_init": "xavier_uniform", "bias_init": "zeros"}
        self.query_dense = mindspore.nn.Dense(query_size, num_heads * key_dim, **options)
        self.key_dense = mindspore.nn.Dense(key_size, num_heads * key_dim, **options)
        self.value_dense = mindspore.nn.Dense(value_size, num_heads * value_dim, **options)
        self.output_dense = mindspore.nn.Dense(num_heads * value_dim, query_size, **options)
        self.dropout = mindspore.nn.Dropout(p=dropout)

    def split_heads(self, x, size):
        """(batch, steps, heads * size) -> (batch, heads, steps, size), Keras' (heads, size) kernel order."""
        return mindspore.ops.transpose(mindspore.ops.reshape(x, (x.shape[0], x.shape[1], self.num_heads, size)), (0, 2, 1, 3))

    def construct(self, query, value, key=None):
        key = value if key is None else key
        query_heads = self.split_heads(self.query_dense(query), self.key_dim) * self.scale
        key_heads = self.split_heads(self.key_dense(key), self.key_dim)
        value_heads = self.split_heads(self.value_dense(value), self.value_dim)
        scores = mindspore.ops.matmul(query_heads, mindspore.ops.transpose(key_heads, (0, 1, 3, 2)))
        weights = self.dropout(mindspore.ops.softmax(scores, axis=-1))
        joined = mindspore.ops.transpose(mindspore.ops.matmul(weights, value_heads), (0, 2, 1, 3))
        joined = mindspore.ops.reshape(joined, (joined.shape[0], joined.shape[1], self.num_heads * self.value_dim))
        return self.output_dense(joined)
