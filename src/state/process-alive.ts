/** Whether a process with this pid runs (EPERM: it runs, as another user). A reused pid looks alive: callers allow for it. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
