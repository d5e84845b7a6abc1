"""The product's public taxonomy: routes, categories, severities, confidences and finding codes.

The ground floor: every other room (kb, config, analysis, reports, the faces) reads these names from here and
this module imports nothing of ours. Categories and codes are public and stable once released: add new ones,
never rename or renumber. README.md and docs/codes.md show these tables; tests/cli/test_codes_doc.py keeps
them in step.
"""

from __future__ import annotations

from dataclasses import dataclass

ROUTE_MINDSPORE = "mindspore"
ROUTE_NPU = "npu"
ROUTES = (ROUTE_MINDSPORE, ROUTE_NPU)
ROUTE_TITLES = {ROUTE_MINDSPORE: "MindSpore", ROUTE_NPU: "Ascend NPU"}


@dataclass(frozen=True, slots=True)
class CategoryInfo:
    name: str
    routes: tuple[str, ...]
    default_severity: str
    meaning: str  # what the reports and README.md say the category means


_CATEGORY_TABLE = (
    CategoryInfo("ms-equivalent", (ROUTE_MINDSPORE,), "info",
                 "MindSpore has an API that does the same job (possibly under another name)"),
    CategoryInfo("ms-differs", (ROUTE_MINDSPORE,), "warning",
                 "an equivalent exists but parameters, defaults, dtypes or behaviour differ"),
    CategoryInfo("ms-unsupported", (ROUTE_MINDSPORE,), "error",
                 "no MindSpore equivalent is known; the message says what to do instead"),
    CategoryInfo("ms-structure", (ROUTE_MINDSPORE,), "warning",
                 "program structure to change: Module to Cell, forward to construct, the training step, train/eval mode, "
                 "device placement, checkpoints, data parallelism"),
    CategoryInfo("npu-rename", (ROUTE_NPU,), "warning",
                 "a CUDA API, device string, backend name or environment variable with a direct NPU counterpart"),
    CategoryInfo("npu-unsupported", (ROUTE_NPU,), "error",
                 "not supported on NPU, or works differently there and needs a manual change"),
    # Advice, not a needed change: shown only when asked (the severity setting), as issue 15 judged it.
    CategoryInfo("npu-affinity", (ROUTE_NPU,), "hint",
                 "an NPU-affine (fused, faster) replacement exists"),
    CategoryInfo("npu-dynamic-shape", (ROUTE_NPU,), "warning",
                 "the output shape depends on the data, which slows or breaks NPU graph compilation"),
    CategoryInfo("third-party", (ROUTE_MINDSPORE, ROUTE_NPU), "error",
                 "a library that is CUDA-only or needs an Ascend-adapted build"),
)

# The nine categories of DESIGN.md, spelled exactly so.
CATEGORY_INFO: dict[str, CategoryInfo] = {info.name: info for info in _CATEGORY_TABLE}
CATEGORIES = tuple(CATEGORY_INFO)
CATEGORY_ROUTES: dict[str, tuple[str, ...]] = {info.name: info.routes for info in _CATEGORY_TABLE}
CATEGORY_MEANINGS: dict[str, str] = {info.name: info.meaning for info in _CATEGORY_TABLE}

SEVERITIES = ("error", "warning", "info", "hint")  # most severe first
SEVERITY_RANK = {name: rank for rank, name in enumerate(SEVERITIES)}
DEFAULT_SEVERITY: dict[str, str] = {info.name: info.default_severity for info in _CATEGORY_TABLE}

CONFIDENCES = ("exact", "inferred", "heuristic")  # most certain first
CONFIDENCE_RANK = {name: rank for rank, name in enumerate(CONFIDENCES)}


@dataclass(frozen=True, slots=True)
class CodeInfo:
    code: str
    category: str
    name: str  # kebab-case rule name (the docs show it; SARIF shows its PascalCase form, CudaApiRename)
    summary: str


_CODE_TABLE = (
    CodeInfo("MS101", "ms-equivalent", "mindspore-equivalent-api", "MindSpore has an API that does the same job."),
    CodeInfo("MS102", "ms-differs", "mindspore-api-differs", "The MindSpore API differs in parameters, defaults, dtypes or behaviour."),
    CodeInfo("MS103", "ms-unsupported", "mindspore-no-equivalent", "No MindSpore equivalent is known; the message says what to do instead."),
    CodeInfo("MS104", "ms-differs", "mindspore-no-such-argument", "MindSpore has no counterpart for this argument (out, device, requires_grad, pin_memory, ...)."),
    CodeInfo("MS105", "ms-equivalent", "mindspore-equivalent-tensor-method", "A tensor method with a mindspore.Tensor counterpart."),
    CodeInfo("MS201", "ms-structure", "module-to-cell", "nn.Module subclasses become mindspore.nn.Cell subclasses."),
    CodeInfo("MS202", "ms-structure", "forward-to-construct", "A Cell computes in construct(), not forward()."),
    CodeInfo("MS203", "ms-structure", "train-eval-mode", "train()/eval() become set_train(True/False)."),
    CodeInfo("MS204", "ms-structure", "training-step", "zero_grad/backward/step become mindspore.value_and_grad and an optimizer call."),
    CodeInfo("MS205", "ms-structure", "device-placement", "MindSpore places data by context (set_device), not per tensor."),
    CodeInfo("MS206", "ms-structure", "checkpoint", "torch.save/torch.load become save_checkpoint/load_checkpoint."),
    CodeInfo("MS207", "ms-structure", "state-dict", "state_dict/load_state_dict become parameters_dict/load_param_into_net."),
    CodeInfo("MS208", "ms-structure", "data-parallel", "DataParallel/DistributedDataParallel become MindSpore's data-parallel context."),
    CodeInfo("MS209", "ms-structure", "autograd-context", "Gradient recording is functional in MindSpore (no_grad, autograd.grad, ...)."),
    CodeInfo("MS213", "ms-structure", "cell-parameters", "parameters()/named_parameters() become get_parameters()/parameters_and_names()."),
    CodeInfo("MS214", "ms-structure", "tensor-size-call", "x.size(d) becomes x.shape[d]: a MindSpore tensor's size is its element count."),
    CodeInfo("MS215", "ms-structure", "loader-dataset-size", "len(loader.dataset) becomes the size of the pipeline's source: a MindSpore dataset has no .dataset."),
    CodeInfo("MS216", "ms-structure", "dropout2d-input", "A Dropout2d call gets its input as (N, C, -1, 1): MindSpore's Dropout2d takes 4-D input only."),
    CodeInfo("MS217", "ms-structure", "numpy-integer-index", "A tensor indexed by a NumPy integer gets int(index): mindspore 2.10 refuses NumPy integers as indices."),
    CodeInfo("MS218", "ms-structure", "numpy-array-index", "A tensor indexed by a NumPy integer array gets mindspore.Tensor(index): mindspore 2.10 refuses NumPy arrays as indices."),
    CodeInfo("MS221", "ms-structure", "cell-dtype-cast", "model.double()/float()/half() become Cell.to(dtype): a Cell has no cast methods."),
    CodeInfo("MS222", "ms-structure", "embedding-table", "An ops/nn-era Embedding's weight is its embedding_table."),
    CodeInfo("MS223", "ms-structure", "layer-class-name-branch", "In a branch that picks layers by class name, an ops/nn-era layer's parameter has its MindSpore name (BatchNorm weight is gamma)."),
    CodeInfo("MS224", "ms-structure", "layer-parameter-inplace-init", "An in-place init of a layer's parameter (m.weight.data.normal_(0, 0.02)) becomes set_data(initializer(...))."),
    CodeInfo("MS230", "ms-structure", "tensor-format-spec", "A format spec applied to a tensor: mindspore.Tensor.__format__ takes none; format x.item()."),
    CodeInfo("MS231", "ms-structure", "unused-torch-import", "A torch import nothing in the module uses: a MindSpore program must not need torch; the import goes."),
    CodeInfo("MS235", "ms-structure", "written-lbfgs", "torch.optim.LBFGS becomes an L-BFGS written into the program (torch's algorithm without line search): mindspore has none."),
    CodeInfo("MS236", "ms-structure", "written-recurrent-cell", "An LSTMCell/GRUCell/RNNCell in a program that computes in float64 becomes a cell written into the program: mindspore's take float32/float16 only."),
    CodeInfo("MS237", "ms-structure", "written-embedding-bag", "nn.EmbeddingBag (and its from_pretrained) becomes an EmbeddingBag written into the program: mindspore has none."),
    CodeInfo("MS238", "ms-structure", "written-embedding-bag-function", "F.embedding_bag becomes the static embedding_bag of the EmbeddingBag written into the program: mindspore has none."),
    CodeInfo("MS239", "ms-structure", "random-generator", "generator= on a torch random call: kept as a mindspore.Generator or dropped; MindSpore draws other numbers for the same seed."),
    CodeInfo("MS245", "ms-structure", "phase-training-step", "A step run only in the training phase (if phase == 'train' or if model.training, under set_grad_enabled or not) becomes a forward function, value_and_grad in that phase and a plain call otherwise."),
    CodeInfo("MS246", "ms-structure", "parameter-inplace-fill", "p.data.uniform_(-s, s), normal_, zero_, fill_ on a layer's parameter become p.set_data(initializer(...)): no CPU kernel for the in-place fills."),
    CodeInfo("MS247", "ms-structure", "linear-size-attribute", "An ops/nn-era Dense names torch's in_features/out_features in_channels/out_channels."),
    CodeInfo("MS248", "ms-structure", "module-children", "A module's children() is a Cell's cells(): its immediate sub-cells in order."),
    CodeInfo("MS255", "ms-structure", "keras-model-to-cell", "A functional or Sequential Keras model becomes an nn.Cell whose layers get their input sizes."),
    CodeInfo("MS256", "ms-structure", "keras-compile-fit", "model.compile()/fit() become mindspore.train.Model(...) and its fit() on a mindspore.dataset."),
    CodeInfo("MS257", "ms-structure", "tf-data-pipeline", "A tf.data pipeline from arrays becomes a mindspore.dataset NumpySlicesDataset."),
    CodeInfo("MS258", "ms-structure", "tf-gradient-tape", "A GradientTape step becomes a forward function, mindspore.value_and_grad and optimizer(grads)."),
    CodeInfo("MS259", "ms-structure", "keras-optimizer-params", "A Keras optimizer becomes a MindSpore one built on the model's trainable_params()."),
    CodeInfo("MS260", "ms-structure", "tf-function-jit", "@tf.function is removed (the function runs eagerly); @mindspore.jit is added by hand where its arguments are Tensors."),
    CodeInfo("MS261", "ms-structure", "keras-metric", "Keras metrics in a custom loop become mindspore.train Loss/Accuracy with update/eval/clear."),
    CodeInfo("MS262", "ms-structure", "keras-training-argument", "A Keras model called with training= becomes model.set_train(mode)(inputs)."),
    CodeInfo("MS267", "ms-structure", "tf-version", "A printed tf.__version__ becomes mindspore.__version__; a version check is rewritten by hand."),
    CodeInfo("MS268", "ms-structure", "tf-newaxis", "tf.newaxis in an index becomes None (what it is)."),
    CodeInfo("MS269", "ms-structure", "keras-logits-loss", "A Keras cross-entropy on logits becomes nn.SoftmaxCrossEntropyWithLogits, its calls (labels, logits) -> (logits, labels)."),
    CodeInfo("MS270", "ms-structure", "keras-input-size", "A Keras model class's layer sizes depend on its input's shape, which the code does not state: the finding writes each Cell in H, W, C."),
    CodeInfo("NPU101", "npu-rename", "cuda-api-rename", "A torch.cuda API with a torch_npu counterpart."),
    CodeInfo("NPU102", "npu-rename", "cuda-device-string", "A 'cuda' device string or device type; use 'npu'."),
    CodeInfo("NPU103", "npu-rename", "nccl-backend", "The 'nccl' distributed backend; use 'hccl'."),
    CodeInfo("NPU104", "npu-rename", "cuda-environment-variable", "A CUDA environment variable with an Ascend counterpart."),
    CodeInfo("NPU105", "npu-rename", "cuda-method", ".cuda()/.is_cuda and friends; use .npu()/.is_npu."),
    CodeInfo("NPU106", "npu-rename", "torch-npu-import", "torch.npu and the 'npu' device exist only after `import torch_npu`."),
    CodeInfo("NPU110", "npu-unsupported", "device-capability-unpacked", "get_device_capability() is None on Ascend NPU; unpacking, indexing or comparing it fails."),
    CodeInfo("NPU111", "npu-unsupported", "device-properties-version", "Ascend device properties have no major/minor."),
    CodeInfo("NPU112", "npu-unsupported", "amp-c-use", "A use of apex's CUDA extension amp_C, which Ascend does not have."),
    CodeInfo("NPU113", "npu-unsupported", "apex-amp-call", "An apex.amp call; on Ascend use native AMP on NPU or the Ascend apex build."),
    CodeInfo("NPU201", "npu-unsupported", "npu-unsupported-api", "Not supported on Ascend NPU."),
    CodeInfo("NPU202", "npu-unsupported", "npu-caveat", "Works differently on Ascend NPU and needs a manual change."),
    CodeInfo("NPU203", "npu-unsupported", "cuda-backend-switch", "A cuDNN/CUDA backend switch with no effect or another meaning on NPU."),
    CodeInfo("NPU204", "npu-unsupported", "npu-restriction", "Supported on NPU with restrictions (dtypes, argument values, products); check the note."),
    CodeInfo("NPU301", "npu-affinity", "npu-affine-api", "An NPU-affine (fused, faster) replacement exists."),
    CodeInfo("NPU302", "npu-affinity", "npu-affine-pattern", "This code shape has an NPU fused operator."),
    CodeInfo("NPU401", "npu-dynamic-shape", "data-dependent-shape", "The output shape depends on the data, which slows or breaks NPU graph compilation."),
    CodeInfo("NPU402", "npu-dynamic-shape", "boolean-mask-indexing", "Indexing with a boolean mask has a data-dependent shape."),
    CodeInfo("TP101", "third-party", "cuda-only-library", "A library that is CUDA-only or needs an Ascend-adapted build."),
    CodeInfo("TP102", "third-party", "third-party-api-unsupported", "A library API that a third-party list (--third-party-api) says reaches an API the target does not support."),
)

CODES: dict[str, CodeInfo] = {info.code: info for info in _CODE_TABLE}

# The code a knowledge-base entry gets when it names none: one per category.
DEFAULT_CODE_FOR_CATEGORY: dict[str, str] = {
    "ms-equivalent": "MS101",
    "ms-differs": "MS102",
    "ms-unsupported": "MS103",
    "ms-structure": "MS201",
    "npu-rename": "NPU101",
    "npu-unsupported": "NPU201",
    "npu-affinity": "NPU301",
    "npu-dynamic-shape": "NPU401",
    "third-party": "TP101",
}


def code_matches(code: str, selectors: tuple[str, ...] | frozenset[str]) -> bool:
    """Whether `code` is named by any selector: a full code, a prefix (`NPU1`, `MS`), a category, or `ALL`."""
    info = CODES.get(code)
    for selector in selectors:
        if selector == "ALL" or code.startswith(selector) or (info is not None and info.category == selector):
            return True
    return False


def is_code_selector(selector: str) -> bool:
    """Whether `selector` names at least one code: `ALL`, a category, a code or a code prefix."""
    return selector == "ALL" or selector in CATEGORY_INFO or any(code.startswith(selector) for code in CODES)
