/**
 * The connection options every data command documents in its `--help`.
 *
 * @example
 * ```ts
 * const help = `Options:\n  --json  print JSON\n${connectionHelp}`
 * ```
 */
export const connectionHelp = `
Connection (each: the flag, else the variable, else the profile saved by "botshelf login"):
  --url <url>         the service (BP_API_URL; default http://127.0.0.1:3000)
  --token <token>     an access token (BP_TOKEN)
  --bot <id>          the bot whose data to use (BP_BOT_ID)
  --profile <name>    a saved profile (BOTSHELF_PROFILE; default "default")`
