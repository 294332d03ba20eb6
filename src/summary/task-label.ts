// How a task is named to people. Pure.

/**
 * `task 2`, or for the records a session writes before its first prompt's
 * line is seen (a `/utility` command typed first, the hooks' own start):
 * "before the first prompt". Task numbers count typed prompts from 1.
 */
export function taskLabel(task: number): string {
  return task > 0 ? `task ${task}` : "before the first prompt";
}
