"""judge serve's web pages in headless Chromium (Selenium): what a participant and an admin do in a browser.

    browser_test.py ROOT JUDGE

Starts `JUDGE serve` on a free port of 127.0.0.1 with a temporary data folder (one local worker, --no-bench,
softmax-cpu and vector-add), adds participants with --add-participant (one named `<img src=x onerror=alert(1)>`),
then checks, saving a screenshot (PNG) of each step into $ARTEFACTS:
  sign-in; the problems; a statement in English and in Chinese; an AC file submitted with the form; its verdict
  appearing on the same page without a reload (another participant's slower grade holds the one worker first, so
  the page is seen waiting); the report (tests, score, terminal text); the submissions list; the leaderboard with
  both participants, the HTML name as text and no element made of it; the admin's page, a rejudge from it and the
  audit log; POSTs without a CSRF token (or with another session's) refused with 403 (urllib); the pages' security
  headers; no Content-Security-Policy violation and no alert in the browser.
Exit 0 when every check passes, 1 when one fails, 77 where Chromium, chromedriver or Selenium is missing.
"""
import json
import os
import pathlib
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

try:
    from selenium import webdriver
    from selenium.common.exceptions import NoAlertPresentException, TimeoutException, WebDriverException
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError:
    print("skip: python3-selenium is missing")
    sys.exit(77)

XSS_NAME = "<img src=x onerror=alert(1)>"
# A correct softmax whose first three calls sleep 1.5 s: its grade holds the one worker for about 5 s.
SLOW_AC = r"""#include <chrono>
#include <cmath>
#include <thread>
extern "C" void solve(const float* input, float* output, int N) {
  static int calls = 0;
  if (calls++ < 3) std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  float m = input[0];
  for (int i = 1; i < N; ++i) m = std::fmax(m, input[i]);
  double sum = 0;
  for (int i = 0; i < N; ++i) sum += std::exp(static_cast<double>(input[i]) - m);
  for (int i = 0; i < N; ++i) output[i] = static_cast<float>(std::exp(static_cast<double>(input[i]) - m) / sum);
}
"""


class Checks:
    def __init__(self, artefacts):
        self.fails = 0
        self.artefacts = artefacts
        self.shots = 0

    def check(self, ok, what, detail=""):
        print(("ok   " if ok else "FAIL ") + what + (": " + detail if detail else ""), flush=True)
        if not ok:
            self.fails += 1
        return ok

    def shot(self, driver, name):
        self.shots += 1
        path = self.artefacts / f"{self.shots:02d}-{name}.png"
        driver.save_screenshot(str(path))
        print(f"     screenshot {path}", flush=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def add_participant(judge, data, name):
    out = subprocess.run([judge, "serve", "--data", data, "--add-participant", name], capture_output=True,
                         text=True, timeout=60, check=True).stdout
    return out.strip().splitlines()[-1]


def start_server(judge, data, port, log):
    server = subprocess.Popen([judge, "serve", "--data", data, "--listen", f"127.0.0.1:{port}", "--no-bench",
                               "--workers", "1", "--problems", "softmax-cpu,vector-add"],
                              stdout=log, stderr=subprocess.STDOUT, text=True)
    deadline = time.time() + 120
    while time.time() < deadline:
        text = pathlib.Path(log.name).read_text(errors="replace")
        if "serving on" in text:
            m = re.search(r"admin token \(shown once\): (\S+)", text)
            return server, m.group(1) if m else None
        if server.poll() is not None:
            break
        time.sleep(0.2)
    raise RuntimeError("the server did not start; its output:\n" + pathlib.Path(log.name).read_text())


def http(url, data=None, headers=None, method=None):
    """(status, headers, body) of a request; an HTTP error's status too, never a throw for one."""
    req = urllib.request.Request(url, data=data, headers=headers or {}, method=method)
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, r.headers, r.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read().decode("utf-8", "replace")


def multipart(fields):
    boundary = "hpcjudge-test-boundary"
    body = b""
    for name, (filename, content) in fields.items():
        disposition = f'form-data; name="{name}"' + (f'; filename="{filename}"' if filename else "")
        body += f"--{boundary}\r\nContent-Disposition: {disposition}\r\n\r\n".encode() + content.encode() + b"\r\n"
    return body + f"--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"


def api_submit(base, token, slug, filename, text):
    body, ctype = multipart({"problem": (None, slug), "file": (filename, text)})
    return http(base + "/api/submissions", body, {"Authorization": "Bearer " + token, "Content-Type": ctype})


def browser(profile):
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--no-first-run", "--window-size=1280,1000", f"--user-data-dir={profile}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
    return webdriver.Chrome(service=service, options=options)


def api_get(driver, base, path):
    """The API's JSON answer to GET path with the browser's session cookie (which the API accepts)."""
    session = driver.get_cookie("hpcjudge_session")["value"]
    status, _, body = http(base + path, headers={"Cookie": "hpcjudge_session=" + session})
    return json.loads(body) if status == 200 else {"status": status}


def no_alert(driver):
    try:
        driver.switch_to.alert.dismiss()
        return False
    except NoAlertPresentException:
        return True


def sign_in(driver, base, token):
    driver.get(base + "/")
    driver.find_element(By.ID, "token").send_keys(token)
    submit(driver, driver.find_element(By.CSS_SELECTOR, "#sign-in button"))


def submit(driver, element):
    """Clicks a form's button and waits for the page it leads to."""
    page = driver.find_element(By.TAG_NAME, "html")
    element.click()

    def left(_):  # the old page's root is gone (chromedriver says so with either exception)
        try:
            page.is_enabled()
            return False
        except WebDriverException:
            return True
    WebDriverWait(driver, 60).until(left)


def text_of(driver, css):
    found = driver.find_elements(By.CSS_SELECTOR, css)
    return found[0].text if found else ""


def participant_steps(c, driver, base, root, tokens):
    sign_in(driver, base, "not-a-token")
    c.check("401" in driver.title or "no account" in text_of(driver, "#flash"), "a wrong token is not signed in",
            text_of(driver, "#flash"))
    c.shot(driver, "sign-in-refused")
    sign_in(driver, base, tokens["alice"])
    c.check(driver.current_url.endswith("/problems"), "signing in leads to the problems", driver.current_url)
    rows = [r.text for r in driver.find_elements(By.CSS_SELECTOR, "#problems tr")]
    c.check(any("softmax-cpu" in r and "cpu" in r for r in rows) and any("vector-add" in r for r in rows),
            "the problems list the served ones with their kind", " | ".join(rows))
    c.shot(driver, "problems")

    driver.get(base + "/problems/softmax-cpu")
    en, zh = text_of(driver, "#statement-en h1"), driver.find_element(By.ID, "statement-zh-CN").text
    c.check("Softmax" in en, "the English statement is shown", en)
    c.check(re.search("[\u4e00-\u9fff]", zh) is not None and "solve" in zh, "the Chinese statement is shown",
            zh[:60].replace("\n", " "))
    c.check(len(driver.find_elements(By.CSS_SELECTOR, "#statement-en pre code")) >= 2,
            "the statement's code blocks are rendered as code")
    c.shot(driver, "statement-en")
    driver.execute_script("document.getElementById('statement-zh-CN').scrollIntoView()")
    c.shot(driver, "statement-zh")

    # The other participant's slow grade takes the one worker first, so this page is seen waiting.
    status, _, body = api_submit(base, tokens["xss"], "softmax-cpu", "slow.cpp", SLOW_AC)
    c.check(status == 202, "the other participant's upload through the API is accepted", f"{status} {body}")
    driver.find_element(By.ID, "file").send_keys(str(root / "problems/softmax-cpu/solutions/fast.cpp"))
    submit(driver, driver.find_element(By.ID, "submit"))
    m = re.search(r"/submissions/(\d+)$", driver.current_url)
    c.check(m is not None, "submitting leads to the submission's page", driver.current_url)
    state = text_of(driver, "#state")
    c.check(state in ("queued", "compiling", "testing"), "the page shows the grade waiting", state)
    c.shot(driver, "submitted-waiting")
    driver.execute_script("window.hjSamePage = 'yes'")
    try:
        WebDriverWait(driver, 240, 0.5).until(
            lambda d: d.find_element(By.ID, "live").get_attribute("data-done") == "true")
    except TimeoutException:
        pass
    c.check(driver.execute_script("return window.hjSamePage") == "yes", "the verdict came without a reload")
    c.check(text_of(driver, "#report .summary .verdict") == "AC", "the verdict AC appears",
            text_of(driver, "#report .summary"))
    return int(m.group(1)) if m else 0


def report_steps(c, driver, base, root, tokens, sid):
    tests = driver.find_elements(By.CSS_SELECTOR, "#report table.tests tr")
    c.check(len(tests) > 10, "the report lists every test", f"{len(tests) - 1} tests")
    c.check(text_of(driver, "#report .score").startswith("40.0") and "/ 100" in text_of(driver, "#report .score"),
            "the report shows the score (correctness only, --no-bench)", text_of(driver, "#report .score"))
    c.check("verdict AC" in text_of(driver, "#terminal"), "the terminal report is shown as the judge printed it")
    c.check(text_of(driver, "#state") == "done", "the state reads done", text_of(driver, "#state"))
    c.shot(driver, "report")
    driver.get(base + "/submissions")
    row = text_of(driver, f"#sub-{sid}")
    c.check("AC" in row and "softmax-cpu" in row and "done" in row, "the submissions list shows it done", row)
    c.shot(driver, "submissions")
    # Again from the list's own form, the worker held as before: the list's rows follow the grade live.
    api_submit(base, tokens["xss"], "softmax-cpu", "slow.cpp", SLOW_AC)
    driver.find_element(By.ID, "file").send_keys(str(root / "problems/softmax-cpu/solutions/fast.cpp"))
    submit(driver, driver.find_element(By.ID, "submit"))
    again = driver.current_url.rsplit("/", 1)[-1]
    driver.get(base + "/submissions")
    row = f"#sub-{again} .state"
    c.check(text_of(driver, row) in ("queued", "compiling", "testing"), "the list shows the new one waiting",
            text_of(driver, row))
    driver.execute_script("window.hjSamePage = 'yes'")
    try:
        WebDriverWait(driver, 240, 0.5).until(lambda d: d.find_element(By.ID, "live").get_attribute("data-done"))
    except TimeoutException:
        pass
    c.check(driver.execute_script("return window.hjSamePage") == "yes" and text_of(driver, row) == "done" and
            text_of(driver, f"#sub-{again} .verdict") == "AC", "the list's row turns done and AC without a reload",
            text_of(driver, f"#sub-{again}"))
    c.shot(driver, "submissions-live")


def leaderboard_steps(c, driver, base):
    driver.get(base + "/leaderboard")
    page = driver.find_element(By.TAG_NAME, "body").text
    c.check("alice" in page, "the leaderboard lists the participant")
    c.check(XSS_NAME in page, "the name with HTML is shown as text on the leaderboard")
    c.check(not driver.find_elements(By.CSS_SELECTOR, "img"), "no element is made of the name")
    c.check(no_alert(driver), "no script of the name ran")
    c.shot(driver, "leaderboard")


def admin_steps(c, driver, base, admin_token, sid):
    submit(driver, driver.find_element(By.ID, "sign-out"))
    c.check(driver.find_elements(By.ID, "token") != [], "signing out leads back to sign-in")
    sign_in(driver, base, admin_token)
    driver.get(base + "/admin")
    names = driver.find_element(By.ID, "participants").text
    c.check(XSS_NAME in names and not driver.find_elements(By.CSS_SELECTOR, "#participants img"),
            "the admin page shows the HTML name as text")
    c.shot(driver, "admin")
    before = api_get(driver, base, f"/api/submissions/{sid}")
    driver.find_element(By.ID, "rejudge-id").send_keys(str(sid))
    submit(driver, driver.find_element(By.CSS_SELECTOR, "#rejudge-one button"))
    c.check(text_of(driver, "#flash") == "Queued again.", "the rejudge is queued", text_of(driver, "#flash"))
    c.check(f"submission {sid}: 1 queued" in driver.find_element(By.ID, "audit").text,
            "the audit log records the rejudge with who did it")
    c.shot(driver, "admin-rejudged")
    driver.get(f"{base}/submissions/{sid}")
    try:
        WebDriverWait(driver, 240, 0.5).until(lambda d: text_of(d, "#report .summary .verdict") == "AC")
    except TimeoutException:
        pass
    c.check(text_of(driver, "#report .summary .verdict") == "AC", "the rejudged submission is AC again")
    after = api_get(driver, base, f"/api/submissions/{sid}")
    c.check(after.get("state") == "done" and after.get("server", {}).get("request") not in
            (None, before.get("server", {}).get("request")), "the report shown is the rejudge's (a new request)",
            f"request {before.get('server', {}).get('request')} -> {after.get('server', {}).get('request')}")
    c.shot(driver, "rejudged-report")
    contest_steps(c, driver, base)


def contest_steps(c, driver, base):
    driver.get(base + "/admin")
    driver.find_element(By.ID, "new-name").send_keys("bob")
    submit(driver, driver.find_element(By.ID, "add"))
    token = text_of(driver, "#new-token")
    status, _, body = http(base + "/api/whoami", headers={"Authorization": "Bearer " + token})
    c.check(status == 200 and '"bob"' in body, "a participant added on the admin page gets a working token",
            f"{status} {body}")
    c.shot(driver, "admin-new-token")
    driver.get(base + "/admin")
    submit(driver, driver.find_element(By.CSS_SELECTOR, "#freeze form:first-of-type button"))
    c.check(text_of(driver, "#flash") == "The leaderboard is frozen." and
            "frozen at" in text_of(driver, "#freeze"), "freezing the leaderboard", text_of(driver, "#freeze"))
    driver.get(base + "/leaderboard")
    c.check("Frozen at" in text_of(driver, "#frozen"), "the leaderboard says it is frozen", text_of(driver, "#frozen"))
    c.shot(driver, "leaderboard-frozen")
    driver.get(base + "/admin")
    closes = driver.find_element(By.NAME, "closes_at")
    closes.clear()
    closes.send_keys("next tuesday")
    submit(driver, driver.find_element(By.CSS_SELECTOR, "#policy button"))
    c.check("2026-12-07T09:00:00Z" in text_of(driver, "main"), "a contest time that does not read is refused",
            text_of(driver, "main"))
    driver.get(base + "/admin")
    submit(driver, driver.find_element(By.CSS_SELECTOR, "#freeze form:last-of-type button"))
    audit = driver.find_element(By.ID, "audit").text
    c.check(text_of(driver, "#flash") == "The leaderboard is live." and "freeze" in audit and "unfreeze" in audit
            and "add participant bob" in audit, "unfreezing; the audit log has every action", audit[:200])


def csrf_steps(c, driver, base, sid):
    session = driver.get_cookie("hpcjudge_session")["value"]
    cookie = {"Cookie": "hpcjudge_session=" + session, "Content-Type": "application/x-www-form-urlencoded"}
    status, _, _ = http(base + "/admin/rejudge", urllib.parse.urlencode({"id": sid}).encode(), cookie)
    c.check(status == 403, "a POST without the CSRF token is refused", str(status))
    form = urllib.parse.urlencode({"id": sid, "csrf": "0" * 64}).encode()
    status, _, _ = http(base + "/admin/rejudge", form, cookie)
    c.check(status == 403, "a POST with a wrong CSRF token is refused", str(status))
    status, _, _ = http(base + "/logout", b"", cookie)
    c.check(status == 403, "signing out without the CSRF token is refused", str(status))
    status, headers, _ = http(base + "/admin", headers={"Cookie": "hpcjudge_session=" + session})
    csp = headers.get("Content-Security-Policy", "")
    c.check(status == 200 and ("script-src 'sha256-" in csp or "script-src 'none'" in csp),
            "the page has a Content-Security-Policy", csp[:80])
    c.check(headers.get("X-Frame-Options") == "DENY" and headers.get("X-Content-Type-Options") == "nosniff" and
            bool(headers.get("Referrer-Policy")), "the page has the other security headers")
    violations = [e["message"] for e in driver.get_log("browser")
                  if "Content Security Policy" in e["message"] or "Uncaught" in e["message"]]
    c.check(not violations, "the browser logged no CSP violation or script error", "; ".join(violations)[:300])


def run(root, judge, artefacts, data, log):
    c = Checks(artefacts)
    tokens = {"alice": add_participant(judge, data, "alice"), "xss": add_participant(judge, data, XSS_NAME)}
    port = free_port()
    server, admin_token = start_server(judge, data, port, log)
    base = f"http://127.0.0.1:{port}"
    profile = tempfile.mkdtemp(prefix="hpcjudge-chromium-")
    driver = None
    try:
        c.check(admin_token is not None, "the server printed the admin's token at its first start")
        driver = browser(profile)
        try:
            sid = participant_steps(c, driver, base, root, tokens)
            report_steps(c, driver, base, root, tokens, sid)
            leaderboard_steps(c, driver, base)
            admin_steps(c, driver, base, admin_token or "", sid)
            csrf_steps(c, driver, base, sid)
        except Exception as e:  # a page without what a step looks for: a failure, with the page's screenshot
            c.check(False, "every step ran to its end", f"{type(e).__name__}: {str(e).splitlines()[0]}")
    finally:
        if driver is not None:
            try:
                c.shot(driver, "last")
            finally:
                driver.quit()
        server.terminate()
        server.wait(timeout=30)
        shutil.rmtree(profile, ignore_errors=True)
    return c


def main():
    if len(sys.argv) != 3:
        print("usage: browser_test.py ROOT JUDGE", file=sys.stderr)
        return 2
    root, judge = pathlib.Path(sys.argv[1]).resolve(), str(pathlib.Path(sys.argv[2]).resolve())
    for tool in (os.environ.get("CHROMIUM", "/usr/bin/chromium"),
                 os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")):
        if not os.access(tool, os.X_OK):
            print(f"skip: {tool} is missing")
            return 77
    artefacts = pathlib.Path(os.environ.get("ARTEFACTS", root / "build/artefacts/server-browser"))
    artefacts.mkdir(parents=True, exist_ok=True)
    for old in artefacts.glob("*.png"):
        old.unlink()
    data = tempfile.mkdtemp(prefix="hpcjudge-serve-")
    try:
        with open(artefacts / "server.log", "w") as log:
            c = run(root, judge, artefacts, data, log)
    finally:
        shutil.rmtree(data, ignore_errors=True)
    print(f"{'FAIL' if c.fails else 'ok'}: {c.fails} check(s) failed; screenshots and the server's log in {artefacts}")
    return 1 if c.fails else 0


if __name__ == "__main__":
    sys.exit(main())
