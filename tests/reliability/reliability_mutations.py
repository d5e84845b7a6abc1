"""Mutations of realistic training scripts: what a file looks like half-way through being typed or merged.

The examples/ scripts are real training code (DDP on ImageNet, a transformer LM, a VAE, Keras, detection
post-processing). A mutation deletes, duplicates, swaps, indents or truncates lines, or inserts a line from
JUNK: half-typed statements, stray brackets and quotes, odd characters, and lines that change what names
mean (a new alias import, a class that becomes a Module).
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import strategies as st

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SCRIPTS = {path.name: path.read_text(encoding="utf-8") for path in sorted(EXAMPLES.glob("*.py"))}

JUNK = [
    "def broken(:",
    ")",
    "]]",
    "'''",
    '"""',
    "\t\tx = 1",
    "    return",
    "else:",
    "import torch.cuda as tc",
    "import torch as T",
    "from torch import cuda",
    "torch = None",
    "tc.synchronize()",
    "x = torch.zeros(3, device='cuda')",
    "    batch = batch.to(f'cuda:{rank}')",
    "model.cuda()",
    "\x0c",
    "名前 = '中文🙂'; torch.cuda.synchronize()",
    "x = 'a\x00b'",
    "lambda: (",
    "@decorator",
    "class C(nn.Module):",
    "    def forward(self, x):",
    "        return x.cuda()",
    "async def f(): await x",
    "x = 1 \\",
    "if True:",
    "    pass  # ascend-migrate: ignore",
    "torch.cuda.empty_cache()  # ascend-migrate: ignore[NPU101]",
    "dist.init_process_group('nccl')",
    "os.environ['CUDA_VISIBLE_DEVICES'] = '0'",
    "    with torch.cuda.amp.autocast():",
    "match x:",
    "    case [a, *rest]: pass",
    "\r",
    "x = (1,\r\n 2)",
]

OPERATIONS = ("delete", "duplicate", "swap", "insert", "indent", "dedent", "truncate")


@st.composite
def mutated_scripts(draw, max_mutations: int = 4) -> str:
    """One example script with 1..max_mutations random mutations."""
    name = draw(st.sampled_from(sorted(SCRIPTS)))
    lines = SCRIPTS[name].split("\n")
    for _ in range(draw(st.integers(1, max_mutations))):
        operation = draw(st.sampled_from(OPERATIONS))
        index = draw(st.integers(0, len(lines) - 1))
        if operation == "delete" and len(lines) > 1:
            del lines[index]
        elif operation == "duplicate":
            lines.insert(index, lines[index])
        elif operation == "swap":
            other = draw(st.integers(0, len(lines) - 1))
            lines[index], lines[other] = lines[other], lines[index]
        elif operation == "insert":
            lines.insert(index, draw(st.sampled_from(JUNK)))
        elif operation == "indent":
            lines[index] = "    " + lines[index]
        elif operation == "dedent":
            lines[index] = lines[index][4:] if lines[index].startswith("    ") else lines[index]
        elif operation == "truncate":
            text = "\n".join(lines)
            cut = draw(st.integers(0, len(text)))
            lines = text[:cut].split("\n")
    return "\n".join(lines)
