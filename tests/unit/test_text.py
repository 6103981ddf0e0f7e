from beliefgraph.text import contains_phrase, entity_key, tokenize


def test_wifi_spellings_are_one_term() -> None:
    assert tokenize("Wi-Fi") == tokenize("wifi") == tokenize("WIFI") == ["wifi"]


def test_possessives_and_apostrophes() -> None:
    assert tokenize("Mom's heart pill") == ["mom", "heart", "pill"]
    assert tokenize("Mom\u2019s heart pill") == ["mom", "heart", "pill"]


def test_snake_case_names_split_into_words() -> None:
    assert tokenize("response_length") == ["response", "length"]


def test_accents_fold() -> None:
    assert tokenize("Café RÉSUMÉ") == ["cafe", "resume"]


def test_entity_keys_are_snake_case() -> None:
    assert entity_key("Office Wi-Fi") == "office_wifi"
    assert entity_key("  heart   pill ") == "heart_pill"
    assert entity_key("!!!") == ""


def test_phrases_match_only_contiguously() -> None:
    tokens = tokenize("remind me the heart pill dose")
    assert contains_phrase(tokens, ["heart", "pill"])
    assert not contains_phrase(tokens, ["pill", "heart"])
    assert not contains_phrase(tokens, [])
