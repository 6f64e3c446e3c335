# The fleet's tool policy, served by OPA (`opa run --server policy.rego`). Hookline POSTs each
# BeforeTool event to /v1/data/hookline/decision as {"input": <event>} and reads "result" as the
# hook's output: {"decision": "deny", "reason": …} blocks the tool, {} lets it run.
package hookline

default decision := {}

# Shell commands no agent of the fleet may run.
forbidden := ["rm -rf /", "git push --force", "curl | sh"]

decision := {"decision": "deny", "reason": sprintf("fleet policy: %q is not allowed", [input.tool_input.command])} if {
	input.hook_event_name == "BeforeTool"
	input.tool_name == "run_shell_command"
	some bad in forbidden
	contains(input.tool_input.command, bad)
}

# Nobody edits the CI configuration from an agent.
decision := {"decision": "deny", "reason": "fleet policy: .github/workflows is edited by people only"} if {
	input.tool_name in {"write_file", "replace"}
	contains(input.tool_input.file_path, ".github/workflows/")
}
