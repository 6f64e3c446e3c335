"""hookline_hook: write a Python hook once, run it as Hookline runs it.

Standard library only; one file you may import from the installed package or copy beside your
hook. `run(handler)` reads the event, calls `handler(event)` and prints its answer: one-shot (the
event as JSON on stdin, the answer as JSON on stdout) or, when Hookline started the hook with
`"persistent": true`, one JSON line per event for as long as Hookline keeps it running.

    import sys; sys.path.insert(0, "node_modules/hookline/sdk/python")
    from hookline_hook import run, deny

    def guard(event):
        if "rm -rf" in str(event.get("tool_input", {}).get("command", "")):
            return deny("no recursive deletes")

    run(guard)

The answers are plain dicts: Gemini CLI's (`allow`, `deny`, `ask`, `stop`, `add_context`,
`rewrite_tool_input`, `message`) and Claude Code's (`claude_allow_tool`, `claude_deny_tool`,
`claude_ask_tool`, `claude_update_tool_input`, `claude_block`, `claude_add_context`), which Codex
reads too. A handler that returns None answers nothing.
"""
import json
import os
import sys

__all__ = [
    "run", "allow", "deny", "ask", "stop", "message", "add_context", "rewrite_tool_input",
    "claude_allow_tool", "claude_deny_tool", "claude_ask_tool", "claude_update_tool_input",
    "claude_block", "claude_add_context",
]


def allow(**extra):
    return {"decision": "allow", **extra}


def deny(reason, **extra):
    return {"decision": "deny", "reason": reason, **extra}


def ask(system_message=None):
    return {"decision": "ask", **({"systemMessage": system_message} if system_message else {})}


def stop(reason):
    return {"continue": False, "stopReason": reason}


def message(text):
    return {"systemMessage": text}


def add_context(event, text):
    """Context for the model: SessionStart, BeforeAgent or AfterTool."""
    return {"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}


def rewrite_tool_input(tool_input):
    """BeforeTool: arguments merged over the model's."""
    return {"hookSpecificOutput": {"hookEventName": "BeforeTool", "tool_input": tool_input}}


def _claude_decision(decision, reason=None, **extra):
    out = {"hookEventName": "PreToolUse", "permissionDecision": decision, **extra}
    if reason:
        out["permissionDecisionReason"] = reason
    return {"hookSpecificOutput": out}


def claude_allow_tool(reason=None):
    return _claude_decision("allow", reason)


def claude_deny_tool(reason):
    return _claude_decision("deny", reason)


def claude_ask_tool(reason=None):
    return _claude_decision("ask", reason)


def claude_update_tool_input(updated_input, reason=None):
    """PreToolUse: run the tool with this input instead (it replaces the model's)."""
    return _claude_decision("allow", reason, updatedInput=updated_input)


def claude_block(reason):
    """UserPromptSubmit, PostToolUse, Stop, SubagentStop, PreCompact: block, with the reason."""
    return {"decision": "block", "reason": reason}


def claude_add_context(event, text):
    return {"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}


def _one_shot(handler):
    text = sys.stdin.read()
    try:
        event = json.loads(text)
    except ValueError as e:
        # A guard that cannot read what it guards refuses (exit 2 blocks) rather than lets it through.
        sys.stderr.write("hook input: not JSON (%s) — Hookline sends the event as one JSON object on stdin\n" % e)
        return 2
    if not isinstance(event, dict):
        sys.stderr.write("hook input: not a JSON object\n")
        return 2
    out = handler(event)
    if out is not None:
        sys.stdout.write(json.dumps(out))
    return 0


def _persistent(handler):
    def reply(msg):
        sys.stdout.write(json.dumps(msg) + "\n")
        sys.stdout.flush()

    reply({"hookline": "ready", "concurrent": False})
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            req = json.loads(line)
        except ValueError:
            sys.stderr.write("hookline_hook: ignoring a line that is not JSON\n")
            continue
        try:
            reply({"id": req.get("id"), "output": handler(req.get("input") or {})})
        except Exception as e:  # the hook's own error: this event fails, the process goes on
            reply({"id": req.get("id"), "exitCode": 1, "stderr": "%s: %s" % (type(e).__name__, e)})
    return 0


def run(handler):
    """Runs `handler` as this process's hook, in whichever mode Hookline started it, and exits."""
    persistent = os.environ.get("HOOKLINE_PERSISTENT") == "1"
    sys.exit(_persistent(handler) if persistent else _one_shot(handler))
