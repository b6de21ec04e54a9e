/** What `toolsmith --help` and `toolsmith <command> --help` print. */

const AGENTS_ARGUMENT = `[agents]  An agents directory (its <name>.ts|.js and <name>/agent.ts|.js modules exporting rootAgent),
          one app's folder holding agent.ts|.js, or one module. Default: the current directory.`;

const SERVICE_OPTIONS = `  --session-service-uri URI   memory://, sqlite://path.db, postgres://… (default: .toolsmith/toolsmith.db
                              where Node has SQLite, else memory with a note)
  --artifact-service-uri URI  memory://, file://dir, postgres://…, s3://bucket/prefix (default:
                              file://.toolsmith/artifacts)
  --memory-service-uri URI    memory://, sqlite://path.db, postgres://… (default: the sessions' database)
  --credential-service-uri URI  memory://, sqlite://path.db, postgres://…, encrypted under
                              TOOLSMITH_CREDENTIAL_KEY (default: the sessions' database when that key
                              is set, else memory); keys used before it go in
                              TOOLSMITH_CREDENTIAL_PREVIOUS_KEYS while moving to a new one`;

/** Every command's own help, shown by `toolsmith <command> --help` and `toolsmith help <command>`. */
export const COMMAND_HELP = {
  create: `Usage: toolsmith create <name> [--model NAME]

Makes a folder <name> with an agent project that runs at once, offline: package.json, agent.ts (an
agent with one tool, answering through a stand-in model until you name a real one), agent.test.ts
(runs it with vitest), .env.example (the variables for real providers), tsconfig.json, .gitignore
and a README. Then: cd <name> && npm install && npx toolsmith run

  --model NAME   The model agent.ts uses when AGENT_MODEL is unset, such as gemini-2.5-flash
                 (default: the offline stand-in)
The folder must not exist or be empty.
`,
  web: `Usage: toolsmith web ${AGENTS_ARGUMENT}

Serves the web UI and the HTTP API (ADK's routes) at http://127.0.0.1:8000 until Ctrl-C.

  --host HOST              Default 127.0.0.1; another host needs --tokens-file
  --port N                 Default 8000; 0 picks a free port
  --reload                 Load a module again when its file changes
  --allow-origin ORIGIN    Allow browser requests (and /run_live sockets) from ORIGIN (repeatable)
  --tokens-file FILE       JSON {"token": "user-id"}: requests need Authorization: Bearer <token>
  --max-body-bytes N       Largest request body, and /run_live message (default 8 MB)
  --adk-dev-ui             Also serve ADK's Angular dev UI at /dev-ui/ (needs @google/adk-devtools)
  --log-level LEVEL        debug, info, warn, error or silent: one JSON line per request on stderr
                           (default warn for web, info for api-server; or TOOLSMITH_LOG_LEVEL)
  --shutdown-grace S       On SIGTERM/Ctrl-C, seconds running runs get to finish (default 20)
  --a2a                    Also serve each app over A2A at /a2a/<app>/ (needs @a2a-js/sdk and express)
  --a2a-auth-token TOKEN   A2A callers must send Authorization: Bearer TOKEN (or ADK_A2A_AUTH_TOKEN);
                           without one, --a2a is served on a loopback host only
${SERVICE_OPTIONS}
GET /healthz answers while the process runs; GET /readyz only when the stores answer and the server
is not shutting down. OTEL_EXPORTER_OTLP_ENDPOINT (or _TRACES_/_METRICS_ENDPOINT) exports traces and
metrics over OTLP/HTTP.
`,
  "api-server": `Usage: toolsmith api-server ${AGENTS_ARGUMENT}

Serves the HTTP API only (ADK's routes: /list-apps, /run, /run_sse, sessions, artifacts) until Ctrl-C.
Takes the options of toolsmith web (toolsmith web --help).
`,
  run: `Usage: toolsmith run [agent]

Chats with an agent in the terminal: text streams as the model writes it, tool calls and results show
as they happen, confirmations and credentials are asked at the prompt. Type /exit to leave.
[agent] is a module exporting rootAgent, or a folder with agent.ts|.js. Default: the current directory.

  --user ID              The user id (default "user")
  --resume SESSION_ID    Continue a session
  --replay FILE          A JSON list of lines to type instead of reading the keyboard
  --no-stream            Print whole answers instead of streaming them
${SERVICE_OPTIONS}
`,
  mcp: `Usage: toolsmith mcp [agent] [--http]

Serves an agent over the Model Context Protocol: each of its tools, and the agent itself as one tool
named after it taking {request}. Over stdio by default (for clients that start this process), or
Streamable HTTP with --http at http://127.0.0.1:8000/mcp.
[agent] is a module exporting rootAgent, or a folder with agent.ts|.js. Default: the current directory.

  --http          Serve Streamable HTTP instead of stdio
  --host HOST     With --http: default 127.0.0.1
  --port N        With --http: default 8000; 0 picks a free port
  --user ID       The user the sessions belong to (default "user")
${SERVICE_OPTIONS}
`,
  tools: `Usage: toolsmith tools [agent] [--provider gemini|openai|openai-compatible|anthropic] [--json]

Lists every tool the agent's model gets, with its parameters as that provider receives them, and
warnings where a provider would refuse or misread a schema.
`,
  call: `Usage: toolsmith call <agent> <tool> '<json args>'

Runs one tool on a session, with no model, and prints its result, state delta and saved artifacts.

  --session SESSION_ID   Run it on this session (default: a new one)
  --user ID              The user id (default "user")
  --json                 Print the outcome as JSON
${SERVICE_OPTIONS}
`,
  eval: `Usage: toolsmith eval <agent> <evalset...>

Replays each case of ADK eval sets (.evalset.json, or the older .test.json) against the agent and scores
it: a table of each case and metric with PASS or FAIL, exit code 5 when any criterion falls below its
threshold. Criteria come from test_config.json beside each set (ADK's defaults without one:
tool_trajectory_avg_score 1.0, response_match_score 0.8). Progress goes to stderr.
<evalset> may name cases as ADK does: tests/home.evalset.json:case_1,case_2.

  --config FILE          A test_config.json for every set ({"criteria": {"response_match_score": 0.8}})
  --filter PATTERN       Only cases whose id matches: a glob (refund-*) or a substring
  --num-runs N           Run each case N times; scores are the mean, with the spread (default 1)
  --judge-model NAME     The model judge metrics use when test_config.json names none
                         (final_response_match_v2, rubric_based_*, hallucinations_v1)
  --json FILE            Write the report as JSON
  --junit FILE           Write the report as JUnit XML
  --print-detailed-results   Print expected and actual tool calls and answers of failed criteria
`,
  help: `Usage: toolsmith help [command]

Explains a command, like toolsmith <command> --help.
`,
} as const;

/** A command name the CLI knows. */
export type CommandName = keyof typeof COMMAND_HELP;

/** The command names, in the order `--help` lists them. */
export const COMMAND_NAMES = Object.keys(COMMAND_HELP) as CommandName[];

/** Whether `name` is a command. */
export function isCommandName(name: string): name is CommandName {
  return Object.hasOwn(COMMAND_HELP, name);
}

/** `toolsmith --help`: the commands in one screen. */
export const USAGE = `Usage: toolsmith <command> [options]

  create <name>             Start an agent project that runs offline at once
  web [agents]              Serve the web UI and the HTTP API (http://127.0.0.1:8000)
  api-server [agents]       Serve the HTTP API only
  run [agent]               Chat with an agent in the terminal
  mcp [agent]               Serve an agent's tools over MCP (stdio, or --http)
  tools [agent]             List the agent's tools and their schemas
  call <agent> <tool> '<json args>'   Run one tool on a session and print what it did
  eval <agent> <evalset...> Score an agent on ADK eval sets (table, --json, --junit)
  help [command]            Explain a command (or: toolsmith <command> --help)

[agents] is an agents directory (<name>.ts|.js or <name>/agent.ts|.js modules exporting rootAgent),
one app's folder or one module; [agent] is one module or folder. Both default to the current
directory. Commands that run agents read ./.env first (variables already set win).
ADK's spellings (--session_service_uri, api_server, ...) are accepted.

Everywhere:  --verbose (stack traces)  --help  --version

Exit codes: 0 done, 1 failure, 2 bad command line, 3 bad setup (agents, app, session, service URI,
            port in use), 4 the tool or the run ended in an error, 5 an eval criterion fell below its
            threshold, 130 interrupted.
`;
