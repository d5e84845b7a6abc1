"""Post-processing for an anchor-based detector: decoding, score filtering and batched NMS."""

import torch
import torchvision


def decode(anchors, deltas, weights=(1.0, 1.0, 1.0, 1.0)):
    widths = anchors[:, 2] - anchors[:, 0]
    heights = anchors[:, 3] - anchors[:, 1]
    center_x = anchors[:, 0] + 0.5 * widths
    center_y = anchors[:, 1] + 0.5 * heights
    dx, dy, dw, dh = deltas.unbind(-1)
    predicted_x = dx / weights[0] * widths + center_x
    predicted_y = dy / weights[1] * heights + center_y
    predicted_w = torch.exp(dw / weights[2]) * widths
    predicted_h = torch.exp(dh / weights[3]) * heights
    return torch.stack(
        [predicted_x - 0.5 * predicted_w, predicted_y - 0.5 * predicted_h,
         predicted_x + 0.5 * predicted_w, predicted_y + 0.5 * predicted_h],
        dim=-1,
    )


def postprocess(boxes: torch.Tensor, scores: torch.Tensor, labels: torch.Tensor, score_threshold=0.05, iou_threshold=0.5):
    keep = scores > score_threshold
    boxes, scores, labels = boxes[keep], scores[keep], labels[keep]
    candidates = torch.nonzero(scores > 0.5).squeeze(1)
    kept = torchvision.ops.batched_nms(boxes, scores, labels, iou_threshold)
    classes = torch.unique(labels)
    detections = []
    for label in classes:
        selected = torch.where(labels == label)[0]
        detections.append((int(label.item()), boxes[selected], scores[selected]))
    return kept[:100], candidates, detections


def to_device(batch, device="cuda:0"):
    return {name: value.to(device) for name, value in batch.items()}
