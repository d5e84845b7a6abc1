"""The benchmark corpus: real PyTorch code copied out of pinned PyPI packages into one directory.

The packages are installed with `pip install --no-deps` into a venv of their own (no torch download),
then the chosen parts of their sources are copied to `benchmarks/.work/corpus/`, so that every tool
(ast.parse, ascend-migrate, Ruff, TorchFix) sees exactly the same files under the same path, with no
site-packages or .gitignore rule hiding any of them from one tool but not another.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent
WORK = BENCHMARKS / ".work"
CORPUS_REQUIREMENTS = BENCHMARKS / "requirements-corpus.txt"
TOOLS_REQUIREMENTS = BENCHMARKS / "requirements-tools.txt"

# What is copied from each installed package: whole packages where they are of moderate size, and for
# transformers and diffusers (over 600,000 lines each) their core modules plus a set of popular models.
TRANSFORMERS_MODELS = (
    "bert", "gpt2", "llama", "t5", "vit", "whisper", "clip", "mistral", "qwen2", "bart", "mixtral", "deepseek_v3",
)
FULL_SELECTION: tuple[str, ...] = (
    "timm/**/*.py",
    "torchvision/**/*.py",
    "lightning/**/*.py",
    "transformers/*.py",
    "transformers/generation/**/*.py",
    *(f"transformers/models/{model}/**/*.py" for model in TRANSFORMERS_MODELS),
    "diffusers/*.py",
    "diffusers/models/*.py",
    "diffusers/models/unets/**/*.py",
    "diffusers/models/autoencoders/**/*.py",
    "diffusers/schedulers/**/*.py",
    "diffusers/pipelines/stable_diffusion/**/*.py",
)
# The CI smoke run: one small, pure-Python package.
SMOKE_REQUIREMENTS = ("lightning==2.6.6",)
SMOKE_SELECTION: tuple[str, ...] = ("lightning/fabric/**/*.py",)

# Directory names that ascend-migrate (and Ruff) skip by default: kept out so all tools see the same files.
SKIPPED_DIRECTORY_NAMES = frozenset({
    ".git", ".hg", ".svn", ".venv", "venv", "env", "__pycache__", "node_modules", "build", "dist",
    ".tox", ".nox", ".mypy_cache", ".pytest_cache", ".ruff_cache", "site-packages",
})


@dataclass(frozen=True)
class Corpus:
    """A built corpus: its directory, its files (sorted, relative) and their totals."""

    directory: Path
    files: tuple[str, ...]
    lines: int
    bytes: int
    digest: str  # sha256 over the sorted (path, content) pairs: equal digests mean equal corpora
    packages: dict[str, str]  # package → installed version

    def paths(self) -> list[Path]:
        return [self.directory / name for name in self.files]


def venv_python(venv: Path) -> Path:
    return venv / "bin" / "python"


def ensure_venv(venv: Path, requirements: list[str], no_deps: bool) -> None:
    """Create `venv` and install `requirements` into it, unless it already holds exactly these."""
    stamp = venv / "installed-requirements.json"
    wanted = {"requirements": requirements, "no_deps": no_deps}
    if stamp.is_file() and json.loads(stamp.read_text()) == wanted:
        return
    if venv.exists():
        shutil.rmtree(venv)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    command = [str(venv_python(venv)), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    if no_deps:
        command.append("--no-deps")
    subprocess.run(command + requirements, check=True)
    stamp.write_text(json.dumps(wanted))


def read_requirements(path: Path) -> list[str]:
    lines = (line.split("#", 1)[0].strip() for line in path.read_text().splitlines())
    return [line for line in lines if line]


def site_packages(venv: Path) -> Path:
    output = subprocess.run(
        [str(venv_python(venv)), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True, capture_output=True, text=True,
    )
    return Path(output.stdout.strip())


def select_files(root: Path, patterns: tuple[str, ...]) -> list[str]:
    """The .py files under `root` matching the glob patterns, as sorted relative POSIX paths."""
    chosen: set[str] = set()
    for pattern in patterns:
        matches = list(root.glob(pattern))
        if not matches:
            raise SystemExit(f"benchmarks: the corpus pattern {pattern!r} matches nothing under {root}")
        for match in matches:
            relative = match.relative_to(root)
            if match.is_file() and match.suffix == ".py" and not SKIPPED_DIRECTORY_NAMES.intersection(relative.parts):
                chosen.add(relative.as_posix())
    return sorted(chosen)


def build(name: str, requirements: list[str], selection: tuple[str, ...]) -> Corpus:
    """Install the packages (once) and copy the selected sources to .work/<name>/ (afresh each time)."""
    venv = WORK / f"{name}-venv"
    ensure_venv(venv, requirements, no_deps=True)
    source_root = site_packages(venv)
    files = select_files(source_root, selection)
    directory = WORK / name
    if directory.exists():
        shutil.rmtree(directory)
    digest = hashlib.sha256()
    lines = size = 0
    for relative in files:
        data = (source_root / relative).read_bytes()
        target = directory / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        digest.update(relative.encode() + b"\0" + data + b"\0")
        lines += data.count(b"\n")
        size += len(data)
    packages = dict(requirement.split("==", 1) for requirement in requirements)
    return Corpus(directory, tuple(files), lines, size, digest.hexdigest()[:16], packages)


def subset(corpus: Corpus, name: str, target_lines: int) -> Corpus:
    """A deterministic sample of whole files (by hash of path) with about `target_lines` lines, for slow peers."""
    ranked = sorted(corpus.files, key=lambda relative: hashlib.sha256(relative.encode()).hexdigest())
    directory = WORK / name
    if directory.exists():
        shutil.rmtree(directory)
    chosen: list[str] = []
    digest = hashlib.sha256()
    lines = size = 0
    for relative in ranked:
        if lines >= target_lines:
            break
        data = (corpus.directory / relative).read_bytes()
        if data.count(b"\n") > target_lines // 4:  # no single file dominates the sample
            continue
        chosen.append(relative)
        lines += data.count(b"\n")
        size += len(data)
    for relative in sorted(chosen):
        data = (corpus.directory / relative).read_bytes()
        target = directory / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        digest.update(relative.encode() + b"\0" + data + b"\0")
    return Corpus(directory, tuple(sorted(chosen)), lines, size, digest.hexdigest()[:16], corpus.packages)


def ensure_tools() -> Path:
    """The venv with TorchFix, Ruff and py-spy (with their dependencies); returns its bin directory."""
    venv = WORK / "tools-venv"
    ensure_venv(venv, read_requirements(TOOLS_REQUIREMENTS), no_deps=False)
    return venv / "bin"


if __name__ == "__main__":
    corpus = build("corpus", read_requirements(CORPUS_REQUIREMENTS), FULL_SELECTION)
    by_package: dict[str, list[int]] = {}
    for path in corpus.paths():
        package = path.relative_to(corpus.directory).parts[0]
        totals = by_package.setdefault(package, [0, 0])
        totals[0] += 1
        totals[1] += path.read_bytes().count(b"\n")
    for package, (count, lines) in sorted(by_package.items()):
        print(f"{package:14} {count:5} files {lines:8} lines")
    print(f"{'total':14} {len(corpus.files):5} files {corpus.lines:8} lines, {corpus.bytes / 1e6:.1f} MB, digest {corpus.digest}")
