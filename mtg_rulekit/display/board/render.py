"""The board as static HTML with inline SVG mana symbols: no script, every text escaped.

`board_html(data)` draws what `board_data` read (or reads it first, given a `Game`). The page
contract (docs/classroom.md, "The board"): one `section.rk-board`; a `.rk-turn` line and an
`ol.rk-steps` strip (the current step `aria-current="step"`); per player a `.rk-side` with its
`.rk-player` panel (`.rk-life`, `.rk-pool` of `.rk-mana`, `.rk-hand`, piles in
`details.rk-pile`), `.rk-permanents` and `.rk-lands` rows; the `ol.rk-stack` between the
sides; each card an `.rk-card` with `data-id` = the object's id, `tabindex="0"`, its name
(`aria-label`) saying tapped, sick, counters and the rest, `title` = its full rules text.
State classes on the card: `rk-tapped`, `rk-sick`, `rk-token`, `rk-copy`, `rk-changed`,
`rk-attached`, `rk-exerted`, `rk-borrowed`, `rk-attacking`, `rk-phased`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mtg_rulekit.display.board.data import short_text
from mtg_rulekit.display.board.mana_symbols import symbol_svg, symbol_words, text_html
from mtg_rulekit.display.escape import html_text

if TYPE_CHECKING:
    from collections.abc import Iterable

    from mtg_rulekit.game import Game

__all__ = ["board_html", "card_html"]


def _a(text: object) -> str:
    """An attribute value (single-quoted in the markup)."""
    return html_text(text)


def _badges(card: dict[str, Any]) -> list[tuple[str, str]]:
    """(class, text) of each badge on a card, in the order the name says them."""
    out = []
    if card["copy_of"]:
        out.append(("rk-b-copy", ("token copy of " if card["token"] else "copy of ")
                    + card["copy_of"]))
    elif card["token"]:
        out.append(("rk-b-token", "token"))
    if card.get("card"):
        out.append(("rk-b-copy", f"card: {card['card']}"))
    if card["phased_out"]:
        out.append(("rk-b-phased", "phased out"))
    if card["haste"]:
        out.append(("rk-b-haste", "new, has haste"))
    elif card["sick"]:
        out.append(("rk-b-sick", "sick"))
    for kind, n in card["counters"]:
        out.append(("rk-b-counter", f"{kind} ×{n}"))
    if card["damage"]:
        out.append(("rk-b-damage", f"damage {card['damage']}"))
    for who in card["exerted"]:
        out.append(("rk-b-exert", f"exerted: skips {who}'s next untap"))
    if card["attacking"]:
        out.append(("rk-b-attack", "attacking"))
    if card["blocking"]:
        out.append(("rk-b-attack", f"blocking {card['blocking']}"))
    if card["attached_to"]:
        out.append(("rk-b-attached", f"on {card['attached_to']}"))
    if card["zone"] == "battlefield" and card["owner"] != card["controller"]:
        out.append(("rk-b-borrowed", f"{card['owner']}'s, {card['controller']} controls"))
    if card["changed"]:
        out.append(("rk-b-changed", "changed"))
    return out


def _classes(card: dict[str, Any]) -> str:
    names = ["rk-card", f"rk-frame-{card['frame']}"]
    flags = (("tapped", "rk-tapped"), ("sick", "rk-sick"), ("token", "rk-token"),
             ("copy_of", "rk-copy"), ("changed", "rk-changed"), ("attached_to", "rk-attached"),
             ("exerted", "rk-exerted"), ("attacking", "rk-attacking"),
             ("phased_out", "rk-phased"))
    names += [cls for key, cls in flags if card.get(key)]
    if card["zone"] == "battlefield" and card["owner"] != card["controller"]:
        names.append("rk-borrowed")
    if card["pt"]:
        names.append("rk-creature")
    return " ".join(names)


def _fits(card: dict[str, Any]) -> bool:
    """Whether the card's text roughly fits its face (112 x 160 px, 11 px text): if not, the
    face fades it out and a "Full text" toggle is offered. An estimate that errs towards
    offering the toggle (DejaVu Sans: about 6.2 px a character at 11 px, 8 px bold at 13 px)."""
    import math

    cost_px = 15.5 * len(card["cost"])
    name_lines = math.ceil(len(card["name"]) * 8.2 / max(40.0, 92 - cost_px))
    type_lines = math.ceil(len(card["type_line"]) * 6.4 / 92)
    text_lines = sum(math.ceil(len(t) * 6.8 / 90) for t in card["text"])
    used = name_lines * 15.6 + 8 + type_lines * 13.2 + text_lines * 14 + (22 if card["pt"] else 0)
    return used <= 128


def card_html(card: dict[str, Any], *, details: bool = True) -> str:
    """One card: its upright face (turned 90° clockwise when tapped) and, upright under it,
    its badges. With `details`, a shortened text opens to the full text in a `<details>`."""
    cost = "".join(symbol_svg(s) for s in card["cost"])
    cost_words = " ".join(symbol_words(s) for s in card["cost"])
    text_lines = "".join(f"<li>{text_html(t)}</li>" for t in card["text"])
    full = card["oracle"]
    whole = [short_text(line, 10**9) for line in full.split("\n") if line]
    shortened = card["text"] != whole or not _fits(card)
    # a name whose longest word wouldn't fit beside the cost gets the cost on a line above it;
    # one that wouldn't fit the face's width (88 px on a phone) is set smaller: a name is
    # never broken inside a word ("Bonesplitte / r")
    longest = max((len(w) for w in card["name"].split()), default=0)
    tight = " rk-tight" if cost and longest * 8.4 > 92 - 15.5 * len(card["cost"]) else ""
    if longest * 8.4 > 86:
        tight += " rk-long-name"
    face = [f"<div class='rk-face'><div class='rk-nameline{tight}'>"]
    if cost:  # first, floated right: the name flows around it and keeps its words whole
        face.append(f"<span class='rk-cost'>{cost}<span class='rk-sr'>(cost: "
                    f"{html_text(cost_words)}) </span></span>")
    face.append(f"<span class='rk-name'>{html_text(card['name'])}</span>"
                f"</div><div class='rk-typeline'>{html_text(card['type_line'])}</div>")
    if text_lines:
        face.append(f"<ul class='rk-text'>{text_lines}</ul>")
    if card["pt"]:
        face.append(f"<div class='rk-pt'>{html_text(card['pt'])}</div>")
    face.append("</div>")
    badges = "".join(f"<li class='rk-badge {cls}'>{html_text(text)}</li>"
                     for cls, text in _badges(card))
    parts = [f"<div class='{_classes(card)}' data-id='{int(card['id'])}' tabindex='0' "
             f"role='group' aria-label='{_a(card['label'])}'"
             + (f" title='{_a(full)}'" if full else "") + ">",
             f"<div class='rk-cardbox'>{''.join(face)}</div>"]
    if badges:
        parts.append(f"<ul class='rk-badges'>{badges}</ul>")
    if details and shortened and full:
        parts.append("<details class='rk-oracle'><summary>Full text</summary>"
                     f"<p>{text_html(full).replace(chr(10), '<br>')}</p></details>")
    elif full:  # the sandbox shows the card large, with this, when it is opened
        parts.append(f"<div class='rk-full' hidden>{text_html(full).replace(chr(10), '<br>')}"
                     "</div>")
    parts.append("</div>")
    return "".join(parts)


def _group(card: dict[str, Any], details: bool) -> str:
    """A permanent with what is attached to it, side by side (a little offset)."""
    inner = card_html(card, details=details)
    if not card["attachments"]:
        return inner
    extra = "".join(card_html(a, details=details) for a in card["attachments"])
    return f"<div class='rk-group'>{inner}<div class='rk-with'>{extra}</div></div>"


def _row(cls: str, label: str, cards: list[dict[str, Any]], details: bool) -> str:
    if not cards:
        return ""
    return (f"<div class='rk-cards {cls}' role='group' aria-label='{_a(label)}'>"
            + "".join(_group(c, details) for c in cards) + "</div>")


def _pool(player: dict[str, Any]) -> str:
    if not player["pool"]:
        return "<span class='rk-pool rk-pool-empty'>Mana pool: empty</span>"
    items = []
    for m in player["pool"]:
        sym = symbol_svg(m["type"], mark=m["mark"])
        shown = sym * m["n"] if m["n"] <= 6 else f"{sym}<span class='rk-times'>×{m['n']:,}</span>"
        caption = (f"<span class='rk-manacap'>{html_text(m['caption'])}</span>"
                   if m["caption"] else "")
        cls = "rk-mana rk-restricted" if m["mark"] else "rk-mana"
        items.append(f"<li><span class='{cls}' role='img' aria-label='{_a(m['label'])}'>"
                     f"{shown}{caption}</span></li>")
    return ("<span class='rk-pool'><span class='rk-pool-head'>Mana pool:</span>"
            f"<ul class='rk-pool-list'>{''.join(items)}</ul></span>")


def _pile(title: str, cards: list[dict[str, Any]], details: bool) -> str:
    """A counted pile that opens (graveyard, exile); a plain count when empty."""
    if not cards:
        return f"<span class='rk-pile rk-pile-empty'>{html_text(title)}: 0</span>"
    changed = " rk-changed" if any(c["changed"] for c in cards) else ""
    body = "".join(card_html(c, details=details) for c in cards)
    return (f"<details class='rk-pile{changed}'><summary>{html_text(title)}: {len(cards)}"
            f"</summary><div class='rk-cards'>{body}</div></details>")


def _player(player: dict[str, Any], details: bool) -> str:
    name = player["name"]
    cls = "rk-player" + (" rk-active" if player["active"] else "") + (
        " rk-changed" if player["changed"] else "")
    notes = "".join(f"<span class='rk-note'>{html_text(n)}</span>" for n in player["notes"])
    if player["lost"]:
        notes += "<span class='rk-note'>has lost the game</span>"
    life_label = f"{name}: life {player['life']}"
    if player["changed"]:
        notes += "<span class='rk-badge rk-b-changed'>changed</span>"
    hand = (f"<span class='rk-pile rk-hand-count'>Hand: {player['hand_count']}</span>"
            if not player["hand"] else "")
    return (f"<div class='{cls}'><span class='rk-pname'>{html_text(name)}</span>"
            f"<span class='rk-life' role='img' aria-label='{_a(life_label)}'>"
            f"<span aria-hidden='true'>♥</span> {player['life']:,}</span>{notes}"
            f"{_pool(player)}<span class='rk-piles'>{hand}"
            f"<span class='rk-pile rk-library'>Library: {player['library']}</span>"
            f"{_pile('Graveyard', player['graveyard'], details)}"
            f"{_pile('Exile', player['exile'], details)}</span></div>")


def _side(player: dict[str, Any], *, bottom: bool, details: bool) -> str:
    name = player["name"]
    own = f"{name}'" if name.endswith("s") else f"{name}'s"
    rows = [_row("rk-permanents", f"{own} creatures and other permanents", player["others"],
                 details),
            _row("rk-lands", f"{own} lands", player["lands"], details)]
    if not bottom:
        rows.reverse()  # the far side: lands at the far edge, creatures near the middle
    field = "".join(rows) or "<p class='rk-none'>No permanents.</p>"
    hand = ""
    if player["hand"]:
        cards = "".join(card_html(c, details=details) for c in player["hand"])
        hand = (f"<div class='rk-hand'><p class='rk-zone-title'>{html_text(own)} hand "
                f"({player['hand_count']})</p>"
                + (f"<div class='rk-cards'>{cards}</div>" if cards else "") + "</div>")
    where = "rk-bottom" if bottom else "rk-top"
    panel = _player(player, details)
    body = (panel + f"<div class='rk-field'>{field}</div>" + hand) if bottom else \
        (panel + hand + f"<div class='rk-field'>{field}</div>")
    return (f"<div class='rk-side {where}' role='group' data-player='{_a(name)}' "
            f"aria-label='{_a(own)} side'>{body}</div>")


def _stack(stack: list[dict[str, Any]]) -> str:
    if not stack:
        return "<div class='rk-stackbox'><p class='rk-stack-empty'>Stack: empty</p></div>"
    items = []
    for item in stack:
        cls = "rk-stack-item" + (" rk-top-item" if item["top"] else "") + (
            " rk-changed" if item["changed"] else "")
        src = f" data-source='{int(item['source'])}'" if item["source"] is not None else ""
        targets = (f"<span class='rk-targets'> → {html_text(item['targets'])}</span>"
                   if item["targets"] else "")
        top = "<span class='rk-topmark'>top</span>" if item["top"] else ""
        items.append(f"<li class='{cls}' data-id='{int(item['id'])}'{src} "
                     f"aria-label='{_a(item['label'])}' title='{_a(item['text'])}'>{top}"
                     f"<span class='rk-sowner'>{html_text(item['controller'])}</span> "
                     f"<span class='rk-skind'>{html_text(item['kind'])}</span> "
                     f"<span class='rk-stext'>{text_html(item['short'])}</span>{targets}</li>")
    return (f"<div class='rk-stackbox'><p class='rk-zone-title'>Stack ({len(stack)}), "
            f"newest on top</p><ol class='rk-stack'>{''.join(items)}</ol></div>")


def _turn(data: dict[str, Any]) -> str:
    who = data["active"]
    own = f"{who}'" if who.endswith("s") else f"{who}'s"
    if data["declaring"]:
        declarer = who if data["declaring"] == "attackers" else next(
            (p["name"] for p in data["players"] if p["name"] != who), who)
        prio = f"{declarer} declares {data['declaring']}"
    else:
        prio = f"{data['priority']} has priority" if data["priority"] else "no one has priority"
    steps = "".join(
        f"<li{' aria-current=' + chr(39) + 'step' + chr(39) if s['current'] else ''} "
        f"class='rk-stepitem{' rk-current' if s['current'] else ''}' title='{_a(s['label'])}'>"
        f"{html_text(s['short'])}</li>" for s in data["steps"])
    return (f"<div class='rk-turn'><p class='rk-turnline'><strong>Turn {data['turn']:,}</strong> · "
            f"{html_text(own)} turn · {html_text(data['step_label'])} · "
            f"<strong>{html_text(prio)}</strong></p>"
            f"<ol class='rk-steps' aria-label='Steps of the turn'>{steps}</ol></div>")


def board_html(data_or_game: dict[str, Any] | Game, *, viewer: str | None = None,
               changed: Iterable[int | str] = (), bottom: str | None = None,
               details: bool = True, label: str = "The board") -> str:
    """The board as HTML (a `section.rk-board`, styled by `board.css`). Given a `Game`, reads it
    with `board_data(game, viewer=, changed=, bottom=)` first; given data, draws that.
    `details=False` leaves out the "Full text" toggles (the full text stays in each card's
    `title`), for a front-end that opens a card's own menu on Enter."""
    from mtg_rulekit.display.board.data import board_data

    if isinstance(data_or_game, dict):
        data = data_or_game
    else:
        data = board_data(data_or_game, viewer=viewer, changed=changed, bottom=bottom)
    sides = data["players"]
    top = "".join(_side(p, bottom=False, details=details) for p in sides[:-1])
    bottom_side = _side(sides[-1], bottom=True, details=details) if sides else ""
    return (f"<section class='rk-board' aria-label='{_a(label)}' "
            f"data-bottom='{_a(data['bottom'])}'>{_turn(data)}{top}{_stack(data['stack'])}"
            f"{bottom_side}</section>")
