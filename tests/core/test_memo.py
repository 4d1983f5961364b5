"""``envs.core.memo.IdentityMemo``: one dict per live object, never shared by identity reuse."""

from envs.core.memo import IdentityMemo


class Thing:
    pass


def test_the_same_object_gets_the_same_dict_and_another_object_another():
    memo = IdentityMemo(limit=10)
    a, b = Thing(), Thing()
    memo.of(a)["x"] = 1
    assert memo.of(a) == {"x": 1}
    assert memo.of(b) == {}
    assert len(memo) == 2


def test_the_object_is_kept_alive_so_its_identity_is_not_reused():
    memo = IdentityMemo(limit=10)
    memo.of(Thing())["x"] = 1  # the Thing dies here unless the memo holds it
    fresh = [Thing() for _ in range(50)]
    assert all(memo.of(t) == {} for t in fresh[:9])


def test_it_starts_over_past_its_limit():
    memo = IdentityMemo(limit=3)
    things = [Thing() for _ in range(4)]
    for t in things:
        memo.of(t)["seen"] = True
    assert len(memo) == 4
    memo.of(Thing())  # the fifth object: over the limit, the memo starts over
    assert len(memo) == 1
    assert memo.of(things[0]) == {}
