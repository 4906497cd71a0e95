"""What the two browser tests (tests/web_chromium.py, tests/web_firefox.py) share about the exported page:
its damaged copies, and how to tell that the page shows its error message."""
import os

# JavaScript: the text of the page's error box when it is shown and large enough to read, else null.
VISIBLE_ERROR_JS = ("(function(){var e=document.getElementById('rs-error'); if(!e||e.hidden) return null;"
                    "var r=e.getBoundingClientRect(); return r.width>100 && r.height>20 ? e.textContent : null;})()")


def write_damaged_pages(page, work):
    """Damaged copies of the page at `page`, written into `work`: "corrupt" (one base64 character changed in the
    middle of the data block: its CRC fails), "truncated" (the data block cut to half, its tags kept) and "cut"
    (the file itself cut short inside the data, no closing tags). Returns {name: path}."""
    html = open(page, encoding="ascii").read()
    start = html.index(">", html.index('id="rs-data"')) + 1
    end = html.index("</script>", start)
    mid = start + (end - start) // 2
    while html[mid] in "\n=":
        mid += 1
    texts = {"corrupt": html[:mid] + ("A" if html[mid] != "A" else "B") + html[mid + 1:],
             "truncated": html[:mid] + "\n" + html[end:],
             "cut": html[:mid]}
    paths = {}
    for name, text in texts.items():
        paths[name] = os.path.join(work, name + ".html")
        with open(paths[name], "w", encoding="ascii") as f:
            f.write(text)
    return paths
