"""What the profiler's test scripts share: running a job under weftrun in a directory of its own
and reading the sections of the text report."""
import os
import subprocess
import sys


def fail(message):
    print("FAIL: " + message, file=sys.stderr)
    sys.exit(1)


def run_job(weftrun, app, nranks, work, env):
    """Runs `app` on nranks ranks with `env` added, in directory `work`. Returns weftrun's pid
    (the job number in the profiler's file names), its stdout and its stderr."""
    job = subprocess.Popen([weftrun, "-n", str(nranks), "--timeout", "120", app], cwd=work,
                           env=dict(os.environ, **env), stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
    stdout, stderr = job.communicate()
    sys.stdout.write(stdout)
    sys.stderr.write(stderr)
    if job.returncode != 0:
        fail(f"the job failed with exit code {job.returncode}")
    return job.pid, stdout, stderr


def report_section(report, heading):
    """The lines of the text report from the one starting with `heading` to the next blank one."""
    lines = report.splitlines()
    start = next((i for i, l in enumerate(lines) if l.startswith(heading)), None)
    if start is None:
        fail(f"the report has no section '{heading}'")
    end = next((i for i in range(start, len(lines)) if not lines[i].strip()), len(lines))
    return lines[start:end]
