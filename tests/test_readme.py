"""The README and docs/ stay true.

Every ``python …`` command the README and docs/ name runs a module or script that exists and
takes the flags they give it; every ``/command`` the README and the guides name is in the synced
command tree (subcommands, options and choices included); every file they link to is in the
repository; the quick start is two command lines in a virtual environment, one of them CI's test
command; the README stays a short guide (its pictures: tests/test_readme_pictures.py); and
neither the README nor docs/ cites files outside this repository or an issue number."""
from __future__ import annotations

import asyncio
import importlib.util
import re
import shlex
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
DOCS = sorted((ROOT / "docs").rglob("*.md"))


def _code_spans(text: str) -> list[str]:
    """Inline code and every line of fenced code blocks."""
    blocks = re.findall(r"```[a-z]*\n(.*?)```", text, flags=re.S)
    rest = re.sub(r"```[a-z]*\n.*?```", "", text, flags=re.S)
    spans = [ln for b in blocks for ln in b.splitlines()]
    spans += re.findall(r"`([^`\n]+)`", rest)
    return spans


# ---------------------------------------------------------------------------- python commands
def _python_commands(text: str) -> list[list[str]]:
    out: list[list[str]] = []
    for span in _code_spans(text):
        span = span.split(" #", 1)[0]
        for part in re.split(r"&&|;|\|\|", span):
            m = re.search(r"(?:^|\s|/)(?:python3?)\s+(.*)$", part.strip())
            if not m:
                continue
            words = shlex.split(m.group(1).replace("…", "").replace("<", "").replace(">", ""), posix=True)
            words = [w for w in words if w and not w.startswith("[")]
            if words:
                out.append(words)
    return out


@lru_cache(maxsize=None)
def _help(target: tuple[str, ...]) -> str:
    run = subprocess.run([sys.executable, *target, "--help"], cwd=ROOT, capture_output=True, text=True,
                         timeout=120, env={"LANG": "C", "PATH": "/usr/bin:/bin"})
    return run.stdout + run.stderr


def _all_python_commands() -> list[tuple[str, list[str]]]:
    """(document, words) of every ``python …`` command the README and docs/ name."""
    out = [("README.md", c) for c in _python_commands(README)]
    for doc in DOCS:
        out += [(str(doc.relative_to(ROOT)), c) for c in _python_commands(doc.read_text(encoding="utf-8"))]
    return out


def test_every_python_command_in_the_readme_and_docs_exists_with_its_flags():
    """Every ``python bot.py …`` / ``python -m …`` the README and docs name runs a script or module
    that exists, and every ``--flag`` it gives is in that command's ``--help``."""
    commands = _python_commands(README)
    assert any(c[:1] == ["bot.py"] for c in commands)
    assert any(c[:3] == ["-m", "data.card_sets", "check"] for c in commands)
    every = _all_python_commands()
    assert any(c[:2] == ["-m", "render.readme"] for _, c in every)
    for doc, words in every:
        if words[0] in ("-c", "-") or words[0].endswith(".py") and not (ROOT / words[0].split("/")[-1]).is_file() \
                and "/" in words[0]:
            continue                    # inline code, or a script of the reader's own
        if words[0] == "-m" and words[1] in ("venv", "pip", "pytest", "http.server"):
            continue
        if words[0] == "-m" and words[1].startswith("tests."):     # a test module's own script mode
            source = ROOT / (words[1].replace(".", "/") + ".py")
            assert source.is_file(), f"{doc}: {words[1]}"
            for flag in words[2:]:
                assert not flag.startswith("--") or flag.split("=", 1)[0] in source.read_text(encoding="utf-8"), \
                    f"{doc}: `python {' '.join(words)}`: {flag} is not read by {source.name}"
            continue
        if words[0] == "-m":
            module = words[1].rstrip(":,.;)")        # a code block's prose ("python -m bench: …")
            assert importlib.util.find_spec(module) is not None, f"{doc}: {module}"
            target, flags = ("-m", module), words[2:]
        else:
            script = words[0].split("/")[-1]
            assert (ROOT / script).is_file(), f"{doc}: {words}"
            target, flags = (script,), words[1:]
            if flags[:1] == ["--local"]:        # the console's own options
                target, flags = (script, "--local"), flags[1:]
        text = _help(target)
        for flag in flags:
            if flag.startswith("--"):
                name = flag.split("=", 1)[0]
                assert name in text, f"{doc}: `python {' '.join(words)}`: {name} is not in {' '.join(target)} --help"


def test_the_quick_start_is_two_lines_in_a_virtual_environment_and_ci_runs_its_test_command():
    quick = README.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```sh\n(.*?)```", quick, flags=re.S).group(1).strip().splitlines()
    assert len(block) == 2
    assert all(line.startswith("python3 -m venv .venv && .venv/bin/pip install") for line in block)
    assert block[0].endswith(".venv/bin/python bot.py")
    assert block[1].endswith(".venv/bin/pytest -n auto --dist worksteal")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "\npytest -n auto --dist worksteal" in ci


# ---------------------------------------------------------------------------- slash commands
NOT_COMMANDS = {"metrics", "healthz", "data"}     # HTTP paths of the metrics server; the volume


@pytest.fixture(scope="module")
def tree() -> dict[str, dict]:
    from bot import dump_commands

    payload = asyncio.run(dump_commands())
    out: dict[str, dict] = {}
    for command in payload:
        out[command["name"]] = command
        for name in (command.get("name_localizations") or {}).values():
            out[name] = command
    return out


def _allowed(node: dict) -> set[str]:
    names: set[str] = set()
    for option in node.get("options") or []:
        names.add(option["name"])
        names.update(str(c["value"]) for c in option.get("choices") or [])
    return names


def _slash_mentions(text: str) -> list[str]:
    mentions = [s for s in _code_spans(text) if re.match(r"/[\w-]", s)]
    mentions += re.findall(r"(?<![\w/.)\]])(/[a-z][a-z0-9-]+)(?=[\s'’,.;:)]|$)", re.sub(r"`[^`]*`", "", text))
    return mentions


@pytest.mark.parametrize("doc", ["README.md", "docs/playing.md", "docs/organising.md", "docs/designing.md",
                                 "docs/operating.md"])
def test_every_slash_command_in_the_readme_and_the_guides_is_in_the_command_tree(tree, doc):
    mentions = _slash_mentions((ROOT / doc).read_text(encoding="utf-8"))
    assert len(mentions) > (20 if doc == "README.md" else 3)
    for mention in mentions:
        words = re.split(r"[\s|]+", mention.strip())
        if words[0].count("/") > 1 or words[0][1:] in NOT_COMMANDS:    # a path or a URL's
            continue
        name = re.sub(r"['’]s$", "", words[0][1:])
        assert name in tree, mention
        top = node = tree[name]
        for word in words[1:]:
            word = word.strip("[]")
            if not word or "…" in word or "<" in word or word.startswith(("'", '"')):
                continue
            key = word.split(":", 1)[0]
            subs = {o["name"]: o for n in (top, node) for o in n.get("options") or [] if o["type"] in (1, 2)}
            if key in subs:             # a subcommand (or one of `a | b | c`, its siblings)
                node = subs[key]
                continue
            assert key in _allowed(node), f"{mention}: {key!r} is no subcommand, option or choice of /{name}"


# ---------------------------------------------------------------------------- links
def test_every_file_the_readme_and_docs_link_to_exists():
    for doc in [ROOT / "README.md", *DOCS]:
        text = re.sub(r"```.*?```|`[^`\n]*`", "", doc.read_text(encoding="utf-8"), flags=re.S)   # prose only
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if target.startswith(("http://", "https://", "#", "mailto:")) or "docs/pictures/" in target:
                continue
            path = (doc.parent / target.split("#", 1)[0]).resolve()
            assert path.exists(), f"{doc.relative_to(ROOT)} links to missing {target}"
    operating = (ROOT / "docs" / "operating.md").read_text(encoding="utf-8")
    for path in ("Dockerfile", "compose.yaml", "deploy/doujin-table.service"):
        assert (ROOT / path).is_file() and f"](../{path})" in operating, path
    assert ".env" in (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()   # no token in an image


def test_the_docs_stand_alone_without_files_outside_the_repository():
    for doc in [ROOT / "README.md", *DOCS]:
        text = doc.read_text(encoding="utf-8")
        for outside in ("GAMES.md", "shared/seeds", "../shared"):
            assert outside not in text, f"{doc.relative_to(ROOT)} cites {outside}"


def _code_files() -> list[Path]:
    """The project's code and configuration (not its tests, not its docs)."""
    skip = {"tests", ".git", ".venv", "venv", "node_modules"}
    files = [p for p in ROOT.rglob("*.py") if not skip & set(p.relative_to(ROOT).parts)]
    return files + [ROOT / n for n in ("Dockerfile", "compose.yaml", "pyproject.toml", ".env.example",
                                       "deploy/doujin-table.service") if (ROOT / n).is_file()]


def test_the_code_points_to_the_repositorys_own_docs_and_their_sections_exist():
    """Issue 33: docstrings and comments cited "GAMES.md", "shared/seeds/…", "ENGINE.md" (outside
    this repository) and README sections that moved to docs/; each now names a file of docs/ (or the
    README), and every section it names by its title is there."""
    def headings(doc: Path) -> list[str]:
        return [line.lstrip("#").strip() for line in doc.read_text(encoding="utf-8").splitlines()
                if line.startswith("#")]

    cited = 0
    for path in _code_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        where = path.relative_to(ROOT)
        for outside in ("GAMES.md", "shared/seeds", "../shared", "ENGINE.md"):
            assert outside not in text, f"{where} cites {outside}"
        refs = re.findall(r'(README(?:\.md)?|docs/[\w/]+\.md)[,:]? "([^"\n]+)"', text)
        refs += [(doc, title) for title, doc in re.findall(r'"([^"\n]+)" in (README\.md|docs/[\w/]+\.md)', text)]
        for doc, title in refs:
            target = ROOT / ("README.md" if doc.startswith("README") else doc)
            assert target.is_file(), f"{where} cites {doc}"
            assert any(h == title or h.startswith(title + " ") for h in headings(target)), \
                f"{where} cites section {title!r} of {doc}, which has no such heading"
            cited += 1
    assert cited >= 8, cited


def test_practice_and_deploying_are_documented():
    playing = (ROOT / "docs" / "playing.md").read_text(encoding="utf-8")
    operating = (ROOT / "docs" / "operating.md").read_text(encoding="utf-8")
    assert "/practice game [level] [deck]" in playing and "/practice" in README
    for needle in ("docker compose up", "systemctl enable", "--recheck-quarantine", "migrat",
                   "DATABASE_URL=postgresql://", "python bot.py --backup", "pg_dump"):
        assert needle in operating, needle
    assert "docs/operating.md" in README
    compose = (ROOT / "compose.yaml").read_text(encoding="utf-8")
    assert "postgres" in compose and "DATABASE_URL: postgresql://" in compose


def test_the_license_matches_pyproject_and_the_readme_credits_every_games_designers():
    """A LICENSE file that says what pyproject.toml says, and credits for each game's designers
    as their rulebooks name them."""
    import tomllib

    meta = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    license_text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert meta["license"]["text"] == "MIT" and license_text.startswith("MIT License")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    credits = readme[readme.index("## Credits"):]
    for name in ("ぼろぬ", "瀬田まみむめも", "娛ノ天", "さあくる湯沢温泉", "gley zwei", "紗水典明"):
        assert name in credits, name


# ---------------------------------------------------------------------------- what the README is for
def test_the_readme_is_a_short_guide_for_people_who_run_play_and_organise():
    """At most ~250 lines, in the order: what it is, pictures, quick start, inviting the bot, a
    first match, a first event, a first card set, then links — and none of the developer's
    furniture: no benchmark figures, code paths, test files, tables or migrations."""
    assert len(README.splitlines()) <= 250
    order = ["## What it looks like", "## Quick start", "## Inviting the bot", "## Your first match",
             "## Your first event", "## Your first card set", "## More documentation"]
    at = [README.index(h) for h in order]
    assert at == sorted(at)
    prose = README
    assert not re.findall(r"\b(?:rules|host|cogs|render|data|ai|balance|bench|tests)/[\w/]*\.py\b", prose)
    assert not re.findall(r"\btest_\w+|\.sql\b|\bmigration\s+`|\d+(?:\.\d+)?\s?ms\b|\bp99\b", prose)
    assert "python -m bench" not in prose


def test_no_issue_numbers_in_the_readme_or_the_docs():
    """A reader cannot look an issue number up, so neither the README nor docs/ names one."""
    for doc in [ROOT / "README.md", *DOCS]:
        found = re.findall(r"\b[Ii]ssues?\s*#?\d+", doc.read_text(encoding="utf-8"))
        assert not found, f"{doc.relative_to(ROOT)}: {found}"
