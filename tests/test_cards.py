import pytest

from evaluator.cards import format_card, format_hand, parse_card, parse_cards, parse_hand


def test_parse_and_format_round_trip_every_card():
    for card in range(52):
        assert parse_card(format_card(card)) == card


@pytest.mark.parametrize("text,expected", [
    ("As", 51), ("as", 51), ("AS", 51), ("2c", 0), ("Th", 34), ("10h", 34), ("tH", 34), (" Kd ", 45),
])
def test_parse_card_forms(text, expected):
    assert parse_card(text) == expected


@pytest.mark.parametrize("bad", ["", "A", "Ax", "1s", "11h", "Ass", "ZZ", "10", "♠A"])
def test_bad_card_is_named(bad):
    with pytest.raises(ValueError, match="bad card"):
        parse_card(bad)


def test_hand_forms():
    expected = (51, 45, 38, 24, 7)
    assert parse_hand("As Kd Jh 8c 3s") == expected
    assert parse_hand("AsKdJh8c3s") == expected
    assert parse_hand("as,kd,jh,8c,3s") == expected
    assert parse_hand(["As", "Kd", "Jh", "8c", "3s"]) == expected
    assert format_hand(expected) == "As Kd Jh 8c 3s"


def test_duplicate_and_count_errors_name_the_problem():
    with pytest.raises(ValueError, match="duplicate card As"):
        parse_hand("As Kd Jh As 3s")
    with pytest.raises(ValueError, match="expected 5 cards, got 4"):
        parse_hand("As Kd Jh 8c")
    with pytest.raises(ValueError, match="expected 5 cards, got 6"):
        parse_hand("As Kd Jh 8c 3s 2d")
    with pytest.raises(ValueError, match="bad card 'Xx'"):
        parse_hand("As Kd Jh 8c Xx")
    assert parse_cards("") == ()
