"""Noise left as found by session 8 and found by its second pass (docs/precision.md "Session 8, second pass"), removed
at its root: each case both ways, the quiet form and the form that still needs a change."""

MEMORY_REPORT = """
    import pickle
    import torch
    from torch.cuda._memory_viz import profile_plot, segment_plot, trace_plot
    from torch.cuda import _memory_viz


    def write_memory_report(snapshot_path, html_path, profile=None):
        with open(snapshot_path, "rb") as handle:
            snapshot = pickle.load(handle)
        pages = [trace_plot(snapshot), segment_plot(snapshot), _memory_viz.segments(snapshot)]
        if profile is not None:
            pages.append(profile_plot(profile))
        torch.cuda.memory._dump_snapshot(snapshot_path)
        with open(html_path, "w") as handle:
            handle.write("\\n".join(pages))
"""


def cuda_renames(findings):
    return sorted((finding.line, finding.api) for finding in findings if finding.code == "NPU101")


def test_memory_snapshot_formatting_is_not_cuda(scan):
    # torch.cuda._memory_viz formats a snapshot it is given (torch_npu imports from it): no NPU101 for trace_plot,
    # segment_plot or segments. profile_plot builds its snapshot with torch.cuda.device_count(), and a real torch.cuda
    # call beside them (memory._dump_snapshot) keeps the torch.cuda prefix row.
    assert cuda_renames(scan(MEMORY_REPORT)) == [
        (13, "torch.cuda._memory_viz.profile_plot"),
        (14, "torch.cuda.memory._dump_snapshot"),
    ]


RNG_CHECKPOINT = """
    import random
    import torch


    def get_rng_state():
        state = {"python": random.getstate(), "torch": torch.get_rng_state()}
        if torch.cuda.is_available():
            state["cuda"] = torch.cuda.get_rng_state()
        return state


    def load_rng_state(rng_state_dict, device):
        torch.set_rng_state(rng_state_dict["torch"])
        has_cuda_rng_state = "cuda" in rng_state_dict
        on_gpu = "cuda" in str(device)
        if has_cuda_rng_state and on_gpu:
            torch.cuda.set_rng_state(rng_state_dict["cuda"])
"""


def device_strings(findings):
    return sorted((finding.line, finding.api) for finding in findings if finding.api.startswith("'"))


def test_a_key_the_program_wrote_is_no_device(scan):
    # `"cuda" in rng_state_dict` tests for a key the program chose itself (renaming it would break old checkpoints);
    # `"cuda" in str(device)` tests a device's text and still needs the change, on both routes.
    assert device_strings(scan(RNG_CHECKPOINT)) == [(16, "'cuda'")]
    assert device_strings(scan(RNG_CHECKPOINT, target="mindspore")) == [(16, "'cuda'")]


PROFILE_SUMMARY = """
    import torch

    NEW_PROFILER = tuple(int(part) for part in torch.__version__.split(".")[:2]) >= (2, 4)


    def memory_usage(events, on_gpu):
        device_str = "device" if NEW_PROFILER else "cuda"
        device = "cuda" if on_gpu else "cpu"
        total = sum(getattr(event, f"self_{device_str}_memory_usage", 0) or 0 for event in events)
        return torch.tensor(total, device=device)
"""


def test_a_word_of_an_attribute_name_is_no_device(scan):
    # `"device" if new else "cuda"` chooses between two words of an attribute name (self_cuda_memory_usage), not
    # between devices: only the real device choice on the next line is reported.
    assert device_strings(scan(PROFILE_SUMMARY)) == [(9, "'cuda'")]


POSITIONS = """
    import torch


    def positions(batch, length, start=0):
        steps = torch.arange(length)
        offsets = torch.arange(start, start + length)
        return batch + steps + offsets
"""


def test_arange_is_a_rename_on_the_mindspore_route(scan):
    # torch's end never has a default and mint.arange reads a lone start as end: a rename (MS101 info), no longer
    # "the default value of end is different" (MS102 warning).
    findings = [finding for finding in scan(POSITIONS, target="mindspore") if finding.api == "torch.arange"]
    assert [(finding.line, finding.code, finding.severity) for finding in findings] == [
        (6, "MS101", "info"), (7, "MS101", "info")]
    assert not any("default value of end is different" in finding.message for finding in findings)


OUT_OF_MEMORY_RETRY = """
    import torch


    def step(model, batch, on_out_of_memory):
        try:
            return model(batch)
        except RuntimeError as error:
            if "cuda" in str(error).lower():
                on_out_of_memory()
            raise
"""


def test_an_error_text_naming_the_device_still_counts(scan):
    # `"cuda" in str(error).lower()` looks for the device's name in an error message: on Ascend the message names the
    # NPU, so the test must change (composer's auto-microbatching does this).
    assert device_strings(scan(OUT_OF_MEMORY_RETRY)) == [(9, "'cuda'")]


LAUNCH_SCRIPT = """
    import inspect
    from transformers import Trainer


    def main(model, arguments, dataset, algorithms, settings):
        trainer = Trainer(model=model, args=arguments, train_dataset=dataset)
        trainer.train(resume_from_checkpoint=arguments.resume_from_checkpoint)
        for algorithm in algorithms:
            if "settings" in inspect.signature(algorithm.train).parameters:
                algorithm.train(arguments, settings)
        model.train()
        model.train(mode=False)
"""


def test_a_train_call_torch_would_refuse_is_another_objects(scan):
    # On a receiver of unknown type only the name says `train` is torch.nn.Module.train(mode=True): a call that
    # passes what it does not take (a Hugging Face Trainer's resume_from_checkpoint=, two arguments) is not it, and a
    # method only referenced runs nothing. The module calls still get MS203.
    findings = scan(LAUNCH_SCRIPT, target="mindspore")
    assert [(finding.line, finding.code) for finding in findings if finding.api == "torch.nn.Module.train"] == [
        (12, "MS203"), (13, "MS203")]
