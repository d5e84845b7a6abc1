"""Runs torchvision/torchaudio transforms and the mindspore.dataset transforms the tables call equivalent side by side,
on small real inputs, for what a numeric check of one call cannot show: what is drawn per call, resampling and rounding,
value range, dtype and layout. Prints one line per check; mappings/verification/transforms_reviewed.yaml records the
verdicts it led to.

    PYTHONPATH=server:DIR /work/kbvenv/bin/python -m tools.transform_review

DIR holds torchvision 0.28.0 and torchaudio 2.11.1 unpacked from their PyPI wheels (neither is installed beside
mindspore; their CUDA extensions do not load on this machine, so DIR's copies have torchvision/_C.so and
torchaudio/lib/*.so renamed away and torchvision's fake-kernel registrations of the missing operators turned into no-ops;
the Python transforms run on PIL images and CPU tensors without them). Needs torch, mindspore and Pillow importable.
"""

from __future__ import annotations

import numpy as np

SEED = 16


def _image(height: int = 33, width: int = 41) -> np.ndarray:
    """A noise image (HWC uint8): neighbouring pixels differ, so an off-by-one crop or another filter shows."""
    return np.random.RandomState(SEED).randint(0, 256, (height, width, 3), dtype=np.uint8)


def _difference(first: np.ndarray, second: np.ndarray) -> str:
    if first.shape != second.shape:
        return f"shapes {first.shape} vs {second.shape}"
    gap = np.abs(first.astype(np.float64) - second.astype(np.float64))
    return "equal" if gap.max() == 0 else f"mean |diff| {gap.mean():.3g}, max {gap.max():.3g}"


def crops() -> list[str]:
    from mindspore.dataset import vision
    from PIL import Image
    from torchvision import transforms as tv

    image = _image()
    lines = []
    for size in (16, (16, 20), 48):  # odd margins (33 - 16) test the rounding of the offset; 48 > 33 the padding
        torch_out = np.asarray(tv.CenterCrop(size)(Image.fromarray(image)))
        try:
            ms_out = vision.CenterCrop(size)(image)
            lines.append(f"CenterCrop({size!r}) PIL vs HWC array: {_difference(torch_out, ms_out)}")
            if size == 48:  # larger than the image: where does each put the image in the padded output?
                lines.append(f"  CenterCrop(48) image placed at rows {np.argwhere(torch_out.any(axis=(1, 2)))[[0, -1], 0]} "
                             f"(torch) and {np.argwhere(ms_out.any(axis=(1, 2)))[[0, -1], 0]} (mindspore), columns "
                             f"{np.argwhere(torch_out.any(axis=(0, 2)))[[0, -1], 0]} and "
                             f"{np.argwhere(ms_out.any(axis=(0, 2)))[[0, -1], 0]}")
        except Exception as error:  # a refusal is the finding
            lines.append(f"CenterCrop({size!r}): mindspore raised {type(error).__name__}: {str(error)[:120]}")
    torch_five = [np.asarray(crop) for crop in tv.FiveCrop(16)(Image.fromarray(image))]
    ms_five = vision.FiveCrop(16)(Image.fromarray(image))
    lines.append(f"FiveCrop(16) on PIL: {len(torch_five)} vs {len(ms_five)} crops, in order: "
                 + ", ".join(_difference(a, np.asarray(b)) for a, b in zip(torch_five, ms_five, strict=True)))
    try:
        vision.FiveCrop(16)(image)
        lines.append("FiveCrop(16) on an HWC array: accepted")
    except Exception as error:
        lines.append(f"FiveCrop(16) on an HWC array: mindspore raised {type(error).__name__}: {str(error)[:100]}")
    return lines


def grayscale() -> list[str]:
    from mindspore.dataset import vision
    from PIL import Image
    from torchvision import transforms as tv

    image = _image()
    lines = []
    try:
        vision.Grayscale(1)(image)
        lines.append("Grayscale(1) on an HWC array: accepted")
    except TypeError as error:
        lines.append(f"Grayscale(1) on an HWC array: mindspore raised TypeError: {str(error)[:60]}")
    for channels in (1, 3):
        torch_out = np.asarray(tv.Grayscale(channels)(Image.fromarray(image)))
        ms_out = np.asarray(vision.Grayscale(channels)(Image.fromarray(image)))
        lines.append(f"Grayscale({channels}) on PIL: torch {torch_out.shape} {torch_out.dtype}, mindspore "
                     f"{ms_out.shape} {ms_out.dtype}: {_difference(torch_out.reshape(ms_out.shape), ms_out)}")
    tensor_out = tv.Grayscale(1)(tv.functional.pil_to_tensor(Image.fromarray(image))).numpy()  # CHW uint8 path
    lines.append(f"Grayscale(1) torch tensor (CHW) vs PIL: {_difference(tensor_out[0], np.asarray(tv.Grayscale(1)(Image.fromarray(image))))}")
    return lines


def linear_transformation() -> list[str]:
    import torch
    from mindspore.dataset import vision
    from torchvision import transforms as tv

    chw = np.random.RandomState(SEED).rand(3, 4, 5).astype(np.float32)
    size = chw.size
    matrix = np.random.RandomState(SEED + 1).rand(size, size).astype(np.float32)
    mean = np.random.RandomState(SEED + 2).rand(size).astype(np.float32)
    torch_out = tv.LinearTransformation(torch.from_numpy(matrix), torch.from_numpy(mean))(torch.from_numpy(chw)).numpy()
    ms_chw = vision.LinearTransformation(matrix, mean)(chw)
    ms_hwc = vision.LinearTransformation(matrix, mean)(np.ascontiguousarray(chw.transpose(1, 2, 0)))
    return [f"LinearTransformation on the same CHW array: {_difference(torch_out, ms_chw)} (rtol 1e-5: "
            f"{np.allclose(torch_out, ms_chw, rtol=1e-5, atol=1e-4)})",
            f"LinearTransformation on its HWC copy (mindspore's usual layout), back to CHW: "
            f"{_difference(torch_out, ms_hwc.transpose(2, 0, 1))}"]


def color_jitter() -> list[str]:
    """Brightness alone on a flat grey image: the output over the input is the factor drawn, so its range shows."""
    from mindspore.dataset import vision
    from PIL import Image
    from torchvision import transforms as tv

    grey = np.full((8, 8, 3), 100, dtype=np.uint8)
    torch_factors = [np.asarray(tv.ColorJitter(brightness=0.4)(Image.fromarray(grey)))[0, 0, 0] / 100 for _ in range(300)]
    ms_factors = [vision.RandomColorAdjust(brightness=0.4)(grey)[0, 0, 0] / 100 for _ in range(300)]
    lines = [f"ColorJitter(brightness=0.4) factor over 300 calls: torch {min(torch_factors):.2f}..{max(torch_factors):.2f} "
             f"({len(set(torch_factors))} distinct), mindspore {min(ms_factors):.2f}..{max(ms_factors):.2f} "
             f"({len(set(ms_factors))} distinct)"]
    image = _image()
    for name, arguments in (("contrast", {"contrast": (0.5, 0.5)}), ("saturation", {"saturation": (0.5, 0.5)}),
                            ("hue", {"hue": (0.1, 0.1)})):  # a fixed factor: the filters themselves compared
        torch_out = np.asarray(tv.ColorJitter(**arguments)(Image.fromarray(image)))
        ms_out = vision.RandomColorAdjust(**arguments)(image)
        lines.append(f"ColorJitter({name}=fixed factor) PIL vs HWC array: {_difference(torch_out, ms_out)}")
    try:
        vision.RandomColorAdjust(brightness=0.4)(np.ascontiguousarray(image.transpose(2, 0, 1)).astype(np.float32) / 255)
        lines.append("RandomColorAdjust on a CHW float array (ToTensor's output): accepted")
    except Exception as error:
        lines.append(f"RandomColorAdjust on a CHW float array (ToTensor's output): mindspore raised "
                     f"{type(error).__name__}: {str(error).splitlines()[0][:100]}")
    return lines


def choice_and_order() -> list[str]:
    from mindspore.dataset import transforms

    picks = [transforms.RandomChoice([lambda x: x + 1, lambda x: x + 2])(np.zeros(1))[0] for _ in range(400)]
    orders = [transforms.RandomOrder([lambda x: x * 2, lambda x: x + 1])(np.ones(1))[0] for _ in range(400)]
    lines = [f"RandomChoice of 2 over 400 calls: {picks.count(1.0)} x first, {picks.count(2.0)} x second",
             f"RandomOrder of 2 over 400 calls: {orders.count(3.0)} x (double, add), {orders.count(4.0)} x (add, double)"]
    try:
        transforms.RandomChoice([lambda x: x], p=[1.0])
        lines.append("RandomChoice(transforms, p=[1.0]): accepted")
    except TypeError as error:
        lines.append(f"RandomChoice(transforms, p=[1.0]): mindspore raised TypeError: {error}")
    return lines


def interpolation() -> list[str]:
    from mindspore.dataset import vision
    from torchvision.transforms import InterpolationMode

    image = _image(64, 64)
    lines = [f"members: torchvision {list(InterpolationMode.__members__)}, mindspore "
             f"{[name for name in vision.Inter.__members__]}"]
    import torch
    from PIL import Image
    from torchvision.transforms import functional

    for mode, inter in (("NEAREST", vision.Inter.NEAREST), ("BILINEAR", vision.Inter.BILINEAR),
                        ("BICUBIC", vision.Inter.BICUBIC)):
        for size in (32, 96):  # shrink, enlarge
            pil = np.asarray(functional.resize(Image.fromarray(image), [size, size], getattr(InterpolationMode, mode)))
            tensor = functional.resize(torch.from_numpy(image).permute(2, 0, 1), [size, size],
                                       getattr(InterpolationMode, mode), antialias=False).permute(1, 2, 0).numpy()
            ms_out = vision.Resize([size, size], inter)(image)
            lines.append(f"Resize 64->{size} {mode}: mindspore vs torchvision PIL {_difference(pil, ms_out)}; vs tensor "
                         f"antialias=False {_difference(tensor, ms_out)}")
    for mode, inter in (("NEAREST", vision.Inter.NEAREST), ("BILINEAR", vision.Inter.BILINEAR),
                        ("BICUBIC", vision.Inter.BICUBIC), ("LANCZOS", vision.Inter.ANTIALIAS)):
        pil = np.asarray(functional.resize(Image.fromarray(image), [32, 32], getattr(InterpolationMode, mode)))
        ms_pil = np.asarray(vision.Resize([32, 32], inter)(Image.fromarray(image)))  # MindSpore's PIL path
        lines.append(f"Resize 64->32 on a PIL image, torchvision {mode} vs mindspore {inter.name}: {_difference(pil, ms_pil)}")
    return lines


def mu_law() -> list[str]:
    import torch
    import torchaudio.transforms as audio_torch
    from mindspore.dataset import audio

    waveform = np.linspace(-1, 1, 101, dtype=np.float32)
    torch_codes = audio_torch.MuLawEncoding()(torch.from_numpy(waveform)).numpy()
    ms_codes = audio.MuLawEncoding()(waveform)
    lines = [f"MuLawEncoding(256) on [-1, 1]: torch {torch_codes.dtype}, mindspore {ms_codes.dtype}: "
             f"{_difference(torch_codes, ms_codes)}"]
    loud = np.array([-3.0, 1.5], dtype=np.float32)
    lines.append(f"MuLawEncoding outside [-1, 1] ({loud.tolist()}): torch {audio_torch.MuLawEncoding()(torch.from_numpy(loud)).tolist()}, "
                 f"mindspore {audio.MuLawEncoding()(loud).tolist()}")
    codes = np.arange(0, 256, 5)
    torch_wave = audio_torch.MuLawDecoding()(torch.from_numpy(codes)).numpy()
    ms_wave = audio.MuLawDecoding()(codes)
    lines.append(f"MuLawDecoding(256) of int codes: torch {torch_wave.dtype}, mindspore {ms_wave.dtype}: "
                 f"{_difference(torch_wave, ms_wave)}")
    return lines


def audio_transforms() -> list[str]:
    import torch
    import torchaudio.transforms as audio_torch
    from mindspore.dataset import audio

    lines = []
    features = np.random.RandomState(SEED).rand(2, 700, 13).astype(np.float32)  # (channel, time, freq) as torchaudio
    for arguments in ({}, {"center": True, "norm_vars": True}, {"cmn_window": 50, "min_cmn_window": 10}):
        torch_out = audio_torch.SlidingWindowCmn(**arguments)(torch.from_numpy(features)).numpy()
        ms_out = audio.SlidingWindowCmn(**arguments)(features)
        lines.append(f"SlidingWindowCmn({arguments}) on (2, 700, 13): {_difference(torch_out, ms_out)}")
    rate = 16000
    for seconds, onset in ((2, 0.8), (4, 0.8), (4, 2.5), (2, 0.0)):  # noise, then a 440 Hz tone from the onset
        time = np.arange(rate * seconds) / rate
        waveform = np.where(time >= onset, 0.5 * np.sin(2 * np.pi * 440 * time),
                            0.001 * np.random.RandomState(SEED).randn(time.size)).astype(np.float32)
        torch_out = audio_torch.Vad(rate)(torch.from_numpy(waveform)).numpy()
        ms_out = audio.Vad(rate)(waveform)
        kept = min(torch_out.shape[-1], ms_out.shape[-1])
        tails = "" if not kept else f"; the last {kept} samples {_difference(torch_out[-kept:], ms_out[-kept:])}"
        lines.append(f"Vad(16000) on {seconds} s, tone from {onset} s: torch keeps {torch_out.shape[-1]} samples, "
                     f"mindspore {ms_out.shape[-1]}{tails}")
    signal = np.linspace(-0.9, 0.9, 19, dtype=np.float32)
    for gain, gain_type in ((2.0, "amplitude"), (0.5, "amplitude"), (6.0, "db"), (2.0, "power")):
        torch_out = audio_torch.Vol(gain, gain_type)(torch.from_numpy(signal)).numpy()
        ms_type = {"amplitude": audio.GainType.AMPLITUDE, "db": audio.GainType.DB, "power": audio.GainType.POWER}[gain_type]
        ms_out = audio.Vol(gain, ms_type)(signal)
        lines.append(f"Vol({gain}, {gain_type}) on [-0.9, 0.9]: {_difference(torch_out, ms_out)}; max torch "
                     f"{torch_out.max():.3g}, mindspore {ms_out.max():.3g}")
    complex_pairs = np.random.RandomState(SEED).randn(3, 4, 2).astype(np.float32)
    expected = np.hypot(complex_pairs[..., 0], complex_pairs[..., 1])
    lines.append(f"ComplexNorm(1.0) on (..., 2) pairs against |z|: {_difference(expected, audio.ComplexNorm(1.0)(complex_pairs))}; "
                 f"torchaudio 2.11.1 has ComplexNorm: {hasattr(audio_torch, 'ComplexNorm')}")
    return lines


def pil_only() -> list[str]:
    """Which mindspore.dataset.vision transforms refuse a numpy HWC image (what Decode() gives), as FiveCrop does."""
    from mindspore.dataset import transforms, vision

    image = _image()
    lines = []
    for name, transform in (("TenCrop(16)", vision.TenCrop(16)), ("RandomGrayscale(1.0)", vision.RandomGrayscale(1.0)),
                            ("RandomPerspective(prob=1.0)", vision.RandomPerspective(prob=1.0)),
                            ("RandomHorizontalFlip(1.0)", vision.RandomHorizontalFlip(1.0)),
                            ("RandomVerticalFlip(1.0)", vision.RandomVerticalFlip(1.0)),
                            ("RandomApply([identity])", transforms.RandomApply([lambda x: x]))):
        try:
            transform(image)
            lines.append(f"{name} on an HWC array: accepted")
        except Exception as error:  # the kind of refusal is the finding
            lines.append(f"{name} on an HWC array: mindspore raised {type(error).__name__}: {str(error)[:60]}")
    return lines


def resized_crop() -> list[str]:
    """RandomResizedCrop with the whole image as its only possible crop: what is left is the resize itself."""
    from mindspore.dataset import vision
    from PIL import Image
    from torchvision import transforms as tv

    image = _image(64, 64)
    torch_out = np.asarray(tv.RandomResizedCrop(32, scale=(1.0, 1.0), ratio=(1.0, 1.0))(Image.fromarray(image)))
    ms_out = vision.RandomResizedCrop(32, scale=(1.0, 1.0), ratio=(1.0, 1.0))(image)
    ms_pil = np.asarray(vision.RandomResizedCrop(32, scale=(1.0, 1.0), ratio=(1.0, 1.0))(Image.fromarray(image)))
    return [f"RandomResizedCrop(32, scale=(1, 1), ratio=(1, 1)) of 64x64: torchvision PIL vs mindspore numpy "
            f"{_difference(torch_out, ms_out)}; vs mindspore PIL {_difference(torch_out, ms_pil)}"]


def masking() -> list[str]:
    """SpecAugment masks on a spectrogram of ones: the masked rows (or columns) of each call show width and start."""
    import collections

    import torch
    import torchaudio.transforms as audio_torch
    from mindspore.dataset import audio

    spectrogram = np.ones((1, 40, 50), dtype=np.float32)
    lines = []
    for name, parameter, axis in (("FrequencyMasking", "freq_mask_param", 1), ("TimeMasking", "time_mask_param", 0)):
        makers = {"torchaudio": lambda x, name=name: getattr(audio_torch, name)(10)(torch.from_numpy(x)).numpy(),
                  "mindspore default": getattr(audio, name)(**{parameter: 10}),
                  "mindspore iid_masks=True": getattr(audio, name)(True, 10)}
        for label, transform in makers.items():
            widths, starts = collections.Counter(), set()
            for _ in range(300):
                masked = np.where((np.asarray(transform(spectrogram))[0] == 0).all(axis=axis))[0]
                widths[len(masked)] += 1
                starts.update(masked[:1].tolist())
            lines.append(f"{name} {label}, 300 calls: widths {min(widths)}-{max(widths)}, starts "
                         f"{min(starts, default=None)}-{max(starts, default=None)} ({len(starts)} distinct)")
        try:
            getattr(audio, name)(10)
            lines.append(f"{name}(10): accepted")
        except TypeError as error:
            lines.append(f"{name}(10): mindspore raised TypeError: {error}")
    return lines


def main() -> None:
    for check in (crops, grayscale, linear_transformation, color_jitter, choice_and_order, interpolation, mu_law,
                  audio_transforms, masking, pil_only, resized_crop):
        for line in check():
            print(f"{check.__name__}: {line}")


if __name__ == "__main__":
    main()
