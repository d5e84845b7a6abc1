"""The MindSpore route proven by execution: each corpus program is fixed with `fix --write --unsafe --target
mindspore` and then run with the real mindspore on CPU (issue 17).

Two eras: the default (2.10, `mint` layers) and `--mindspore-version 2.4` (ops/nn layers). The ops/nn era must
run the program to its end. The mint era runs under mint_on_cpu.py (mint.randn/rand/randint/randperm/arange and
Tensor.clone have no CPU kernel in mindspore 2.10: the runner computes them on the host or with a CPU kernel of the same
result), and some layers have no CPU kernel either (Conv2d, BatchNorm, cross_entropy), so a run may stop there,
and only there: any other error is a broken rewrite, and only after the program's model was built (`builds`:
the mint-era result must import and construct in every program; the runner writes line_completion.mark once the
`builds` statement has run to its end, wherever it sits: test_line_completion.py). A program that does not run yet is an `xfail(strict=True)` naming where it stops,
so it fails the day it starts to run (then the mark goes). A program whose fixed version must stop at a line
that is advice only (`advice`: no MindSpore counterpart exists) is checked to stop exactly there, with the
finding on that line saying why. Needs mindspore 2.10 in this interpreter (CI stage 38-execution); skips
cleanly without it.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from tests.execution.line_completion import mark

CORPUS = Path(__file__).parent / "corpus"
MINT, OPS_NN = "2.10", "2.4"
RUN_SECONDS = 600  # a program runs a few steps in seconds; mindspore's start-up alone takes ~5 s on a busy core

pytestmark = pytest.mark.skipif(importlib.util.find_spec("mindspore") is None, reason="needs mindspore 2.10 (CI stage 38-execution)")

# What a mint-era run may stop at: mindspore 2.10 has no CPU kernel for the op (never a broken rewrite).
MISSING_CPU_KERNEL = re.compile(r"Create kernelmod for op \w+ failed|The kernel \w+ unregistered|[Uu]nsupported op \[\w+\] on CPU|not support.* on CPU")
# The mint era runs under this runner: mint.randn/rand/randint/randperm drawn with NumPy, mint.arange and Tensor.clone
# computed with the same result, since mindspore 2.10's CPU build has no kernel for them (its docstring lists why).
MINT_ON_CPU = Path(__file__).parent / "mint_on_cpu.py"


@dataclass(frozen=True)
class Advice:
    """Where a fixed program must stop because the line has no MindSpore counterpart, and what its finding says."""
    line: str  # the text of the script's line the run stops at (the innermost frame of the traceback in the script)
    code: str  # the finding a re-scan reports on that line
    says: str  # words of that finding's message


@dataclass(frozen=True)
class Program:
    name: str  # its folder under corpus/
    script: str  # the file run
    builds: str  # how the statement that constructs the (last) model begins: a mint-era stop must come after it ran
    arguments: tuple[str, ...] = ()
    plain: bool = True  # a plain model/training script: no torch import may be left
    stops: dict[str, str] | None = None  # era → where it stops today (xfail reason)
    advice: Advice | None = None  # the run stops at an advice-only line (both eras)


DCGAN_ARGUMENTS = ("--niter", "1", "--batchSize", "4", "--nz", "8", "--ngf", "8", "--ndf", "8", "--workers", "0", "--outf", "out")

# Where each program stops today (the first error of its fixed version; docs/fixes.md lists why).
PROGRAMS = [
    Program("guide_resnet", "train.py", "model = ResNet()"),
    Program("mnist", "main.py", "model = Net()", ("--epochs", "1", "--batch-size", "32", "--test-batch-size", "32", "--save-model")),
    Program("mnist_rnn", "main.py", "model = Net()", ("--epochs", "1", "--batch-size", "32", "--test-batch-size", "32", "--save-model")),
    # vae: the module-level `kwargs` dict is followed into both loaders; the mint era stops at randn_like's kernel
    # vae: its loaders are module-level globals that train()/test() read; len(train_loader.dataset) follows them (MS215)
    Program("vae", "main.py", "model = VAE()", ("--epochs", "1", "--batch-size", "64")),
    # regression: poly_desc's '{:+.2f}'.format(w) gets w.item() (MS230): its parameters are tensors at every call
    Program("regression", "main.py", "fc = "),
    Program("super_resolution", "main.py", "model = Net(", ("--upscale_factor", "2")),
    Program("word_language_model", "train.py", "model = RNNModel("),
    # dcgan: no torch import left: `cudnn.benchmark = True` removed (MS103), `nn.parallel.data_parallel` in the
    # multi-GPU branch calls the cell (MS208), `load_state_dict(torch.load(opt.netG))` loads a checkpoint (MS206;
    # executed by test_dcgan_resumes_from_its_own_checkpoints)
    Program("dcgan", "main.py", "netD = Discriminator(", DCGAN_ARGUMENTS),
    # time_sequence_prediction: LBFGS is written into the file (MS235) and its closure step rewritten, and its float64
    # model's LSTMCells are cells written into the file (MS236: mindspore.nn.LSTMCell takes float32/float16 only)
    Program("time_sequence_prediction", "train.py", "seq = Sequence()"),
    # Session 8, a new user's programs (pytorch/tutorials; SOURCE.md in each folder).
    # amp_cifar: autocast -> contextlib.nullcontext() and GradScaler -> DynamicLossScaler(...) (mixed_precision.py), the
    # GradScaler step rewritten, outputs.data read as it is, torch.save({..., "model": net.state_dict()}, f"...pth") ->
    # save_checkpoint(net, f"...ckpt", append_dict={...})
    Program("amp_cifar", "train.py", "net = Net()"),
    # finetune: the device choice moved above the module's first tensors (set_device must precede every kernel), a
    # DataLoader over `image_datasets[x]` of a dict of TensorDatasets, the phase step under set_grad_enabled (MS245),
    # fc.in_features -> in_channels (MS247, ops/nn era), SGD with parameter groups gets torch's lr=0.001
    Program("finetune", "train.py", "model_conv = Backbone()"),
    # text_classifier: nn.EmbeddingBag -> the EmbeddingBag written into the file (MS237) and its weight's in-place fill ->
    # set_data (MS246); DataLoader over a list with a collate_fn -> SequenceLoader and random_split -> RandomSplit
    # written into the file; test()'s loss, a tensor since criterion is built below the function, formatted with
    # .item() (MS230). The mint era stops at cross_entropy's kernel.
    Program("text_classifier", "train.py", "model = TextSentiment("),
    # Session 9, a new user's programs (pytorch/examples; SOURCE.md in each folder).
    # gcn: torch.Tensor(a, b) in a Parameter -> ops.zeros((a, b), float32), FloatTensor(data) keeps its cast, the step
    # in train_iter's own body (a function, not a loop) -> value_and_grad, torch.spmm -> ops.mm (ops/nn era) / mint.mm
    # (no CPU kernel in 2.10: the mint era stops there, after the model is built)
    Program("gcn", "main.py", "gcn = GCN(", ("--epochs", "20", "--val-every", "10", "--include-bias")),
    # reinforce: the policy gradient sums log-probabilities saved while acting; MindSpore differentiates a function, so
    # the step cannot be rewritten (MS204 at zero_grad says why); before it: deque -> list for mindspore.tensor,
    # returns.std() -> std(ddof=1), Categorical from mindspore.nn.probability
    Program("reinforce", "reinforce.py", "policy = Policy()", ("--episodes", "3", "--log-interval", "1"),
            advice=Advice("optimizer.zero_grad()", "MS204", "no model runs between zero_grad() and backward()")),
    # siamese_network: the Dataset base -> object (sequence_data.py), MaxPool2d's stride/pad_mode, children() -> cells(), clone() -> copy()
    # (ops/nn era), fc.in_features through self.resnet.fc, the isinstance(m, nn.Linear) bias fill -> set_data; session 10:
    # DataLoader(train_dataset, **train_kwargs) over the map-style class -> SequenceLoader with torch's default collate,
    # self.data[index_1] with the numpy.int64 np.where gave -> self.data[int(index_1)] (MS217), the never-used
    # `import torch.nn.functional as F` removed (MS231). The mint era builds the model and stops at Conv2d's kernel.
    Program("siamese_network", "main.py", "model = SiameseNetwork()",
            ("--epochs", "1", "--batch-size", "8", "--test-batch-size", "8", "--log-interval", "4", "--save-model")),
]


def _case_list():
    for program in PROGRAMS:
        for era in (OPS_NN, MINT):
            reason = (program.stops or {}).get(era)
            marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
            yield pytest.param(program, era, marks=marks, id=f"{program.name}-{'ops-nn' if era == OPS_NN else 'mint'}")


def _ascend_migrate(*arguments: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ascend_migrate", *arguments], cwd=cwd, capture_output=True, text=True, timeout=RUN_SECONDS)


@pytest.fixture(scope="module")
def fixed(tmp_path_factory):
    """fixed(program, era) -> the directory of the program fixed for that era, made once per module (a fix and a
    re-scan share it: the runs write only checkpoints and images, never a .py file)."""
    made: dict[tuple[str, str], Path] = {}

    def make(program: Program, era: str) -> Path:
        key = (program.name, era)
        if key not in made:
            made[key] = fixed_copy(program, era, tmp_path_factory.mktemp(f"{program.name}-{era}"))
        return made[key]

    return make


def fixed_copy(program: Program, era: str, directory: Path) -> Path:
    """The program copied into `directory` and fixed there as a user would, for the era's MindSpore version."""
    target = directory / program.name
    shutil.copytree(CORPUS / program.name, target, ignore=shutil.ignore_patterns("SOURCE.md", "__pycache__"))
    result = _ascend_migrate("fix", "--write", "--unsafe", "--target", "mindspore", "--mindspore-version", era, ".", cwd=target)
    assert result.returncode in (0, 1), f"fix failed ({result.returncode}):\n{result.stderr}"
    assert "Traceback" not in result.stderr, result.stderr
    return target


def torch_imports(path: Path) -> list[str]:
    imported = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            imported += [alias.name for alias in node.names if alias.name.split(".")[0] == "torch"]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "torch":
            imported.append(node.module or "")
    return imported


@pytest.mark.parametrize(("program", "era"), list(_case_list()))
def test_fixed_program_runs_on_mindspore(program: Program, era: str, fixed) -> None:
    directory = fixed(program, era)
    environment = dict(os.environ, GLOG_v="3", PYTHONWARNINGS="ignore")
    script = (directory / program.script).read_text(encoding="utf-8").splitlines()
    builds = line_of(script, program.builds)
    runner = [str(MINT_ON_CPU), "--builds", str(builds)] if era == MINT else []
    run = subprocess.run([sys.executable, *runner, program.script, *program.arguments], cwd=directory, capture_output=True,
                         text=True, timeout=RUN_SECONDS, env=environment)
    tail = "\n".join((run.stdout + run.stderr).splitlines()[-25:])
    if program.advice is not None:
        assert run.returncode != 0, f"{program.name} ({era}) ran past its advice-only line {program.advice.line!r}: drop the advice"
        assert script[stopped_at(run.stderr, directory / program.script) - 1].strip().startswith(program.advice.line), tail
        assert_reported(directory, era, program.script, line_of(script, program.advice.line), program.advice)
        return
    if run.returncode != 0 and era == MINT and era not in (program.stops or {}):  # a known stop is its xfail, never a skip
        missing = MISSING_CPU_KERNEL.search(run.stderr)
        assert missing, f"the mint-era result failed for another reason than a missing CPU kernel:\n{tail}"
        stop = stopped_at(run.stderr, directory / program.script)
        assert mark(program.script, builds) in run.stderr, \
            f"the mint-era result stopped at line {stop} before its model was built (line {builds} never ran to its end):\n{tail}"
        pytest.skip(f"mint era: {program.name} imports and builds the model, then stops at line {stop} at an op without a "
                    f"CPU kernel in mindspore 2.10 ({missing.group(0)})")
    assert run.returncode == 0, f"{program.name} ({era}) exited {run.returncode}:\n{tail}"
    if program.plain:
        for path in sorted(directory.glob("*.py")):
            assert torch_imports(path) == [], f"{path.name} still imports {torch_imports(path)}"


def line_of(script: list[str], text: str) -> int:
    """The number of the first line of `script` that starts with `text` (indentation aside)."""
    numbers = [number for number, line in enumerate(script, 1) if line.strip().startswith(text)]
    assert numbers, f"no line starts with {text!r}"
    return numbers[0]


def stopped_at(stderr: str, script: Path) -> int:
    """The line of `script` the run was executing when it failed: the innermost traceback frame in that file (the
    line inside the script's function that raised: an advice-only line in a function, the call into a layer without a
    CPU kernel). Never whether the model was built: the outermost frame of a script that does everything in main() is
    the `main()` call at its bottom (line_completion.py tells that)."""
    frames = [int(number) for path, number in re.findall(r'File "([^"]+)", line (\d+)', stderr) if Path(path).name == script.name]
    assert frames, f"no traceback frame in {script.name}:\n{stderr[-2000:]}"
    return frames[-1]


def assert_reported(directory: Path, era: str, script: str, line: int, advice: Advice) -> None:
    """A re-scan of the fixed program reports `advice.code` on `line`, and its message says why."""
    result = _ascend_migrate("scan", "--target", "mindspore", "--mindspore-version", era, "--format", "json", ".", cwd=directory)
    found = [finding for finding in json.loads(result.stdout)["findings"]
             if Path(finding["path"]).name == script and finding["line"] == line and finding["code"] == advice.code]
    assert found and advice.says in found[0]["message"], f"{script}:{line}: no {advice.code} saying {advice.says!r}: {found}"


# Calls a MindSpore program never makes: a line of the fixed text still holding one must carry a finding
# (a receiver that now looks like a MindSpore object must not hide it).
TORCH_ONLY_CALL = re.compile(r"\.(to|cuda|backward|zero_grad|parameters|named_parameters)\(|\bno_grad\(|\btorch\.")


@pytest.mark.parametrize("program", PROGRAMS, ids=[program.name for program in PROGRAMS])
def test_rescan_after_fix_shows_what_remains(program: Program, fixed) -> None:
    directory = fixed(program, OPS_NN)
    result = _ascend_migrate("scan", "--target", "mindspore", "--mindspore-version", OPS_NN, "--format", "json", ".", cwd=directory)
    lines_with_findings = {(Path(finding["path"]).name, finding["line"]) for finding in json.loads(result.stdout)["findings"]}
    hidden = []
    for path in sorted(directory.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        for number, line in enumerate(text.splitlines(), 1):
            code = line.split("#")[0]
            if code.lstrip().startswith(("import ", "from ")) or number in docstring_lines(text):
                continue  # an import is not a call; what uses it is. A docstring's `(torch.Tensor)` runs nothing
            if TORCH_ONLY_CALL.search(code) and (path.name, number) not in lines_with_findings:
                hidden.append(f"{path.name}:{number}: {line.strip()}")
    assert hidden == [], "left after the fix but not reported by a re-scan:\n" + "\n".join(hidden)


def docstring_lines(text: str) -> set[int]:
    """The lines of the string statements of `text` (docstrings: gcn's "input_tensor (torch.Tensor): ...")."""
    return {number for node in ast.walk(ast.parse(text)) if type(node) is ast.Expr and type(node.value) is ast.Constant
            and type(node.value.value) is str for number in range(node.lineno, (node.end_lineno or node.lineno) + 1)}


def test_dcgan_resumes_from_its_own_checkpoints(fixed) -> None:
    """dcgan's `netG.load_state_dict(torch.load(opt.netG))` (a path from the command line) fixed to
    `mindspore.load_param_into_net(netG, mindspore.load_checkpoint(opt.netG))` reads the .ckpt files its fixed saves
    wrote: a second run given them with learning rate 0 (Adam then moves nothing) and another seed saves exactly the
    first run's weights. Had the load read nothing, the second run's weights would be its own fresh initialisation."""
    import mindspore
    import numpy

    program = next(program for program in PROGRAMS if program.name == "dcgan")
    directory = fixed(program, OPS_NN)
    environment = dict(os.environ, GLOG_v="3", PYTHONWARNINGS="ignore")
    runs = (("--outf", "first", "--manualSeed", "1"),
            ("--outf", "second", "--manualSeed", "2", "--lr", "0",
             "--netG", "first/netG_epoch_0.ckpt", "--netD", "first/netD_epoch_0.ckpt"))
    for extra in runs:
        run = subprocess.run([sys.executable, program.script, *program.arguments, *extra], cwd=directory,
                             capture_output=True, text=True, timeout=RUN_SECONDS, env=environment)
        assert run.returncode == 0, "\n".join((run.stdout + run.stderr).splitlines()[-25:])
    for network in ("netG", "netD"):
        first = mindspore.load_checkpoint(str(directory / "first" / f"{network}_epoch_0.ckpt"))
        second = mindspore.load_checkpoint(str(directory / "second" / f"{network}_epoch_0.ckpt"))
        trained = sorted(name for name in first if "moving_" not in name)  # BatchNorm's running statistics still move
        assert trained and sorted(name for name in second if "moving_" not in name) == trained
        for name in trained:
            assert numpy.array_equal(first[name].asnumpy(), second[name].asnumpy()), f"{network}: {name} was not loaded"
