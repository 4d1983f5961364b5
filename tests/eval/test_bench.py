"""``arena bench``: what it measures and reports (the numbers themselves are the machine's)."""

from __future__ import annotations

from eval.bench import _RandomPlay, paired_steps_per_second, run_bench


def test_random_play_counts_every_step_of_an_episode():
    from pettingzoo.classic import tictactoe_v3

    play = _RandomPlay(tictactoe_v3.raw_env, seed=3)
    steps = play.one_episode()
    # tictactoe: 5 to 9 moves, then each of the 2 agents steps None once
    assert 5 + 2 <= steps <= 9 + 2
    assert play.episode == 4  # the next episode gets the next seed


def test_paired_timing_plays_both_envs_in_turns():
    from pettingzoo.classic import tictactoe_v3

    made = []

    def maker(tag):
        def make():
            env = tictactoe_v3.raw_env()
            made.append(tag)
            return env
        return make

    base, other = paired_steps_per_second(maker("base"), maker("other"), seconds=0.05, slice_s=0.01)
    assert made == ["base", "other"]  # one env each, kept for the whole run
    assert base > 0 and other > 0


def test_run_bench_limits_to_the_named_encounter_and_reports_ratios():
    lines: list[str] = []
    results = run_bench(
        seconds=0.05, out=lines.append, systems=["mano_a_mano"], encounters=["duel_seed"]
    )
    measured = {k.rsplit("/", 1)[0] for k in results if k.count("/") == 2}
    assert measured == {"mano_a_mano/duel_seed"}
    ratio = results["mano_a_mano/duel_seed/vs_connect_four_raw"]
    assert ratio > 0
    assert any(f"{ratio:4.2f}x connect_four raw" in line for line in lines)
    floor = results["toy_vs_connect_four_raw"]  # the generic env on the toy game, for scale
    assert any(
        f"what the env plumbing costs: raw {results['toy_env_raw']:,.0f} steps/s = {floor:4.2f}x"
        in line
        for line in lines
    )
