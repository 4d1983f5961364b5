"""Pictures of fights for GMs: ``arena replay --frames DIR --gif PATH`` and ``arena render``.

A system draws when its env class has a ``renderer`` (``envs.rl.CombatAECEnv.renderer``, the same
function as ``render_mode="rgb_array"``); today that is Mano a Mano's hex map. Other systems get a
one-line error naming the option.

* ``replay_pictures(rec, ...)``: re-runs a record like ``eval.replay.replay`` and draws the start
  and the state after every action: ``N`` actions give ``N + 1`` frames. The first frame's caption
  names the fight (``duel_seed, seed 4, step 0/12``); every later one names the action just taken
  in plain words, described on the encounter before it was applied (``envs.describe_action``):
  ``step 1/12: steven: strike the Clone with the machete, powerful (60% to hit, ~6.0 harm)``
  (``action_caption``). PNGs are named
  ``frame_0000.png``.. (zero-padded to at least four digits, so they sort); frames of an earlier,
  longer run left in the folder under that name pattern are removed. The GIF shows every frame for
  ``1 / fps`` seconds, the last one three times as long, and loops.
* ``render_encounter(...)``: one picture of an encounter's start (after its setup rolls for a seed)
  or of a situation file.

Every file is written atomically (``envs.core.files.atomic_write``).
"""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image, ImageChops

from envs.core.files import atomic_write

__all__ = ["renderer_for", "FrameWriter", "replay_pictures", "render_encounter", "png_bytes",
           "action_caption"]

FRAME_NAME = re.compile(r"frame_(\d+)\.png")
GIF_TOLERANCE, GIF_OFF_PIXELS = 32, 200
"""a GIF frame shares an earlier frame's palette unless more than ``GIF_OFF_PIXELS`` pixel channels
would be off by more than ``GIF_TOLERANCE``"""
PROGRESS_EVERY = 100
"""frames between progress lines on stderr (only for fights longer than that)"""


def renderer_for(system: str, option: str = "--frames") -> Any:
    """The picture function ``renderer(enc, caption)`` of ``system``.

    Raises:
        ValueError: naming ``option`` when the system does not draw, or an unknown system.
    """
    from envs import SYSTEMS, get_env_module

    if system not in SYSTEMS:
        raise ValueError(f"{option}: unknown system {system!r}; known: {', '.join(SYSTEMS)}")
    fn = getattr(get_env_module(system).raw_env, "renderer", None)
    if fn is None:
        drawn = [
            s for s in SYSTEMS if getattr(get_env_module(s).raw_env, "renderer", None) is not None
        ]
        raise ValueError(
            f"{option}: {system} has no map picture "
            f"(systems that draw: {', '.join(drawn) or 'none'})"
        )
    return fn


def png_bytes(frame: np.ndarray | Image.Image) -> bytes:
    """A frame encoded as PNG."""
    img = frame if isinstance(frame, Image.Image) else Image.fromarray(frame)
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=3)
    return buf.getvalue()


def check_outputs(frames_dir: str | Path | None, gif: str | Path | None, fps: float | None) -> None:
    """One-line ``ValueError`` naming the option for unusable output arguments."""
    if frames_dir is not None:
        p = Path(frames_dir)
        if p.exists() and not p.is_dir():
            raise ValueError(f"--frames: {p} exists and is not a folder")
    if gif is not None:
        p = Path(gif)
        if p.suffix.lower() != ".gif":
            raise ValueError(f"--gif: expected a path ending in .gif, got {str(gif)!r}")
        if p.is_dir():
            raise ValueError(f"--gif: {p} is a folder")
    if fps is not None:
        if gif is None:
            raise ValueError("--fps: only used with --gif")
        if not 0 < fps <= 50:
            raise ValueError(f"--fps: expected frames per second in (0, 50], got {fps:g}")


class FrameWriter:
    """Writes frames as they come: PNGs into ``frames_dir`` and/or one GIF at ``finish()``.

    Args:
        frames_dir: folder for ``frame_NNNN.png`` files (created), or ``None``.
        gif: path of an animated GIF, or ``None``.
        fps: GIF frames per second.
        total: how many frames are expected (sets the zero-padding width; at least four digits).
    """

    def __init__(
        self,
        frames_dir: str | Path | None,
        gif: str | Path | None,
        fps: float = 2.0,
        total: int = 0,
    ) -> None:
        self.frames_dir = Path(frames_dir) if frames_dir is not None else None
        self.gif = Path(gif) if gif is not None else None
        self.fps = fps
        self.digits = max(4, len(str(max(total - 1, 0))))
        self.count = 0
        self._gif_frames: list[Image.Image] = []
        self._palette: Image.Image | None = None
        if self.frames_dir is not None:
            self.frames_dir.mkdir(parents=True, exist_ok=True)

    def add(self, frame: np.ndarray) -> None:
        img = Image.fromarray(frame)
        if self.frames_dir is not None:
            atomic_write(
                self.frames_dir / f"frame_{self.count:0{self.digits}d}.png", png_bytes(img)
            )
        if self.gif is not None:  # palette images: a third of the memory of RGB frames
            self._gif_frames.append(self._to_palette(img))
        self.count += 1

    def _to_palette(self, img: Image.Image) -> Image.Image:
        """``img`` in the palette of an earlier frame (fast), or in its own when that palette
        lacks one of its colours (a new one appeared, e.g. a health state not seen before)."""
        if self._palette is not None:
            q = img.quantize(palette=self._palette, dither=Image.Dither.NONE)
            hist = ImageChops.difference(img, q.convert("RGB")).histogram()  # 3 x 256 bins
            off = sum(sum(hist[c * 256 + GIF_TOLERANCE + 1 : (c + 1) * 256]) for c in range(3))
            if off <= GIF_OFF_PIXELS:  # only edges of letters, not a whole shape
                return q
        self._palette = img.quantize(colors=256, method=Image.Quantize.MEDIANCUT)
        return self._palette

    def finish(self) -> list[Path]:
        """Remove stale PNGs of an earlier run, write the GIF; the paths written (folder, GIF)."""
        out: list[Path] = []
        if self.frames_dir is not None:
            for p in self.frames_dir.iterdir():
                m = FRAME_NAME.fullmatch(p.name)
                if m and (int(m.group(1)) >= self.count or len(m.group(1)) != self.digits):
                    p.unlink()
            out.append(self.frames_dir)
        if self.gif is not None and self._gif_frames:
            ms = max(20, round(1000 / self.fps))
            durations = [ms] * len(self._gif_frames)
            durations[-1] = 3 * ms
            buf = io.BytesIO()
            first, *rest = self._gif_frames
            first.save(
                buf,
                format="GIF",
                save_all=True,
                append_images=rest,
                duration=durations,
                loop=0,
                disposal=1,
                optimize=False,
            )
            atomic_write(self.gif, buf.getvalue())
            self._gif_frames = []
            out.append(self.gif)
        return out


def action_caption(enc: Any, label: str) -> str:
    """``label`` as a frame caption: ``actor: the action in plain words`` (``envs.describe_action``
    on ``enc``, the encounter in which it is about to be applied; read only). A label ``enc``
    cannot read stays as it is (the replay then stops at it with its own error)."""
    from envs import describe_action

    try:
        action = enc.parse_action(label)
    except ValueError:
        return label
    return f"{action.actor}: {describe_action(enc, action)}"


def replay_pictures(
    rec: dict[str, Any],
    source: str = "record",
    frames_dir: str | Path | None = None,
    gif: str | Path | None = None,
    fps: float = 2.0,
    progress: bool = False,
) -> tuple[list[str], int]:
    """Re-run ``rec`` (``eval.replay.replay``) drawing every decision: ``(event log, frames)``.

    Raises:
        ValueError: the system does not draw (naming ``--frames`` or ``--gif``), bad outputs.
        ReplayError: the record does not reproduce (files written up to there are kept).
    """
    from eval.replay import replay

    draw = renderer_for(rec["system"], "--frames" if frames_dir is not None else "--gif")
    check_outputs(frames_dir, gif, None)
    total = len(rec["actions"]) + 1
    writer = FrameWriter(frames_dir, gif, fps, total)
    name = f"{rec['encounter']}, seed {rec['seed']}"
    actions = rec["actions"]
    taken = [""]  # the caption of the action about to be applied, described before it is

    def on_state(enc: Any, step: int) -> None:
        head = f"step {step}/{total - 1}"
        writer.add(draw(enc, f"{head}: {taken[0]}" if step else f"{name}, {head}"))
        if step < len(actions) and not enc.is_over():
            taken[0] = action_caption(enc, str(actions[step]))
        if progress and total > PROGRESS_EVERY and step % PROGRESS_EVERY == 0 and step:
            print(f"  drew {step + 1}/{total} frames", file=sys.stderr)

    log = replay(rec, source=source, on_state=on_state)
    writer.finish()
    return log, writer.count


def render_encounter(
    target: str, encounter: str | None, out: str | Path, seed: int = 0, rules: str = "full"
) -> Path:
    """Draw the start of ``target``'s ``encounter`` (setup rolled with ``seed``), or the situation
    file ``target`` (``.yaml``), as a PNG at ``out``."""
    from envs import get_rules
    from envs.core import SeededDice
    from envs.core.cases import encounter_from_situation, load_situation

    if Path(out).suffix.lower() != ".png":
        raise ValueError(f"--out: expected a path ending in .png, got {str(out)!r}")
    dice = SeededDice(seed)
    if target.endswith((".yaml", ".yml")):
        if encounter is not None:
            raise ValueError(
                f"encounter: a situation file names its own encounter; drop {encounter!r}"
            )
        data = load_situation(target)
        system = str(data.get("system"))
        draw = renderer_for(system, "render")
        enc = encounter_from_situation(data, target, dice)
        caption = str(data.get("title") or Path(target).stem)
    else:
        draw = renderer_for(target, "render")
        R = get_rules(target)
        encounter = encounter or R.encounter_names()[0]
        if encounter not in R.encounter_names():
            raise ValueError(
                f"unknown encounter {encounter!r} for {target}; "
                f"known: {', '.join(R.encounter_names())}"
            )
        enc = R.new_encounter(encounter, R.parse_options(rules), dice)
        caption = encounter
    return atomic_write(out, png_bytes(draw(enc, caption)))
