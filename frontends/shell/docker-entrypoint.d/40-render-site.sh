#!/bin/sh
# Start step of the shell image: renders the prerendered pages for THIS deployment before nginx starts.
#
# The image (root Dockerfile, target `frontend`) installs this file as /docker-entrypoint.d/40-render-site.sh;
# nginx-unprivileged's entrypoint runs /docker-entrypoint.d/*.sh in order before `nginx` and stops the container
# when one fails. The runtime image has no Node, so this is POSIX sh and awk (busybox in the image).
#
# In:  $SHELL_SOURCE_DIR (default /srv/www: the shell's build, frontends/shell/dist)
#        .site-template/   the pages, app.html, sitemap.xml and robots.txt rendered with stand-in tokens
#                          (scripts/prerender.mjs), and defaults.env: the build's values
#        config.json       the runtime config for the browser (the image's, or a deployment's mounted over it)
#      the environment:
#        SITE_URL          public origin for canonical links, Open Graph, JSON-LD, sitemap.xml, robots.txt
#                          ("https://www.yourbusiness.com.au": scheme and host, no path)
#        BUSINESS_NAME     trading name (headers, titles, footer, JSON-LD)
#        BUSINESS_PHONE    phone as shown ("08 9000 0000"); tel: links get +61 8 9000 0000 as +61890000000
#        BUSINESS_ABN      the 11-digit ABN (shown as "51 824 753 556"; its check digits must be right)
#        BUSINESS_EMAIL    contact email
#        NODE_ENV          "production": every value above is required; elsewhere an unset one falls back
#                          to the build's placeholder, with a warning
# Out: $SHELL_RENDER_DIR (default /tmp/shell: an emptyDir in Kubernetes, a tmpfs in compose; the root
#      filesystem is read-only)
#        www/              the rendered pages, app.html, sitemap.xml, robots.txt, and config.json (the source's,
#                          with siteUrl and business from the values above): nginx serves them (nginx.conf)
#        ready             written last; /readyz answers 503 without it
#
# Every value is escaped for where it lands: HTML text and attributes, JSON inside <script> (JSON-LD, the
# prerender info), XML, JSON (config.json). Any token left in the output fails the start.
set -eu

SELF=${0##*/}
SOURCE_DIR=${SHELL_SOURCE_DIR:-/srv/www}
RENDER_DIR=${SHELL_RENDER_DIR:-/tmp/shell}
TEMPLATE_DIR=$SOURCE_DIR/.site-template

fail() {
  printf '%s: %s\n' "$SELF" "$*" >&2
  exit 1
}

if [ ! -d "$TEMPLATE_DIR" ]; then
  # The remotes' images carry this file too (one Dockerfile target for every front end) but have no pages.
  printf '%s: no %s: no prerendered pages to render\n' "$SELF" "$TEMPLATE_DIR"
  exit 0
fi
case $RENDER_DIR in
  /?*) ;;
  *) fail "SHELL_RENDER_DIR must be an absolute path, got \"$RENDER_DIR\"" ;;
esac
# Absolute: awk runs from inside the template folder.
SOURCE_DIR=$(cd "$SOURCE_DIR" && pwd)
TEMPLATE_DIR=$SOURCE_DIR/.site-template
if [ ! -f "$TEMPLATE_DIR/index.html" ] || [ ! -f "$TEMPLATE_DIR/defaults.env" ]; then
  fail "$TEMPLATE_DIR is incomplete (no index.html or defaults.env): a broken build"
fi
[ -f "$SOURCE_DIR/config.json" ] || fail "$SOURCE_DIR/config.json is missing"

files=$(cd "$TEMPLATE_DIR" && find . -type f ! -name defaults.env | sort)
# The file names go to awk unquoted below: plain names only (prerender.mjs writes nothing else).
if printf '%s\n' "$files" | grep -q '[^A-Za-z0-9._/-]'; then
  fail "unexpected file name in $TEMPLATE_DIR"
fi

rm -rf "$RENDER_DIR/www" "$RENDER_DIR/ready"
mkdir -p "$RENDER_DIR/www"
(cd "$TEMPLATE_DIR" && find . -type d) | while IFS= read -r dir; do mkdir -p "$RENDER_DIR/www/$dir"; done

# shellcheck disable=SC2016 # the awk program is single-quoted on purpose
RENDER_AWK='
function trim(s) { sub(/^[ \t\r\n]+/, "", s); sub(/[ \t\r\n]+$/, "", s); return s }

# Literal replacement (sub/gsub would read "&" and "\" in the replacement).
function replace_all(s, from, to,    out, i, n) {
  out = ""; n = length(from)
  while ((i = index(s, from)) > 0) { out = out substr(s, 1, i - 1) to; s = substr(s, i + n) }
  return out s
}

# What React does to text and attribute values.
function esc_html(s) {
  s = replace_all(s, "&", "&amp;"); s = replace_all(s, "<", "&lt;"); s = replace_all(s, ">", "&gt;")
  s = replace_all(s, "\"", "&quot;"); return replace_all(s, "\047", "&#x27;")
}
# A JSON string body inside <script>: never "</script" (what head.ts and prerender.mjs do).
function esc_json(s) {
  s = replace_all(s, "\\", "\\\\"); s = replace_all(s, "\"", "\\\"")
  s = replace_all(s, "<", "\\u003c"); return replace_all(s, ">", "\\u003e")
}
function esc_xml(s) {
  s = replace_all(s, "&", "&amp;"); s = replace_all(s, "<", "&lt;"); s = replace_all(s, ">", "&gt;")
  s = replace_all(s, "\"", "&quot;"); return replace_all(s, "\047", "&apos;")
}

function problem(msg) { problems = problems "\n  - " msg }
function fail(msg) { printf "%s: %s\n", SELF, msg > "/dev/stderr"; failed = 1; exit 1 }

# Hosts that can never be a real site (RFC 2606, RFC 6761): crawlers must not be sent there.
function reserved(host,    tld) {
  tld = host; sub(/^.*\./, "", tld)
  return tld == "example" || tld == "invalid" || tld == "test" ||
    host ~ /(^|\.)example\.(com|net|org)$/
}

# ATO check: subtract 1 from the first digit, weights 10 1 3 5 7 9 11 13 15 17 19, sum divisible by 89.
function abn_ok(a,    w, i, d, sum) {
  split("10 1 3 5 7 9 11 13 15 17 19", w, " ")
  sum = 0
  for (i = 1; i <= 11; i++) { d = substr(a, i, 1) + 0; if (i == 1) d--; sum += d * w[i] }
  return sum % 89 == 0
}

function subst(s, kind,    k) {
  for (k = 1; k <= ntok; k++) if (index(s, tok[k])) s = replace_all(s, tok[k], val[kind, k])
  return s
}

# One line of a page: JSON inside <script>…</script> (JSON-LD, the prerender info), HTML elsewhere.
function render_html(s,    out, i, j) {
  out = ""
  while (s != "") {
    if (inscript) {
      i = index(s, "</script")
      if (i == 0) return out subst(s, "json")
      out = out subst(substr(s, 1, i - 1), "json"); s = substr(s, i); inscript = 0
    } else {
      i = index(s, "<script")
      if (i == 0) return out subst(s, "html")
      out = out subst(substr(s, 1, i - 1), "html"); s = substr(s, i)
      j = index(s, ">")
      if (j == 0) fail(FILENAME ": a <script> tag spans lines")
      out = out substr(s, 1, j); s = substr(s, j + 1); inscript = 1
    }
  }
  return out
}

function skip_ws(s, i) { while (i <= length(s) && index(" \t\r\n", substr(s, i, 1)) > 0) i++; return i }
# i at an opening quote; the index after its closing quote, or -1.
function string_end(s, i,    n, c) {
  n = length(s); i++
  while (i <= n) { c = substr(s, i, 1); if (c == "\\") i += 2; else if (c == "\"") return i + 1; else i++ }
  return -1
}
# The members of a JSON object, as raw text: pkey[1..n] (quoted) and pval[1..n]; n, or -1 if not an object.
function parse_object(s,    i, n, c, depth, kstart, vstart, count) {
  n = length(s); i = skip_ws(s, 1)
  if (substr(s, i, 1) != "{") return -1
  i++; count = 0
  while (1) {
    i = skip_ws(s, i); c = substr(s, i, 1)
    if (c == "}") break
    if (count > 0) { if (c != ",") return -1; i = skip_ws(s, i + 1); c = substr(s, i, 1) }
    if (c != "\"") return -1
    kstart = i; i = string_end(s, i); if (i < 0) return -1
    pkey[count + 1] = substr(s, kstart, i - kstart)
    i = skip_ws(s, i); if (substr(s, i, 1) != ":") return -1
    vstart = i = skip_ws(s, i + 1); depth = 0
    while (i <= n) {
      c = substr(s, i, 1)
      if (c == "\"") { i = string_end(s, i); if (i < 0) return -1; continue }
      if (c == "{" || c == "[") depth++
      else if (c == "}" || c == "]") { if (depth == 0) break; depth-- }
      else if (c == "," && depth == 0) break
      i++
    }
    if (i > n) return -1
    pval[count + 1] = trim(substr(s, vstart, i - vstart))
    if (pval[count + 1] == "") return -1
    count++
  }
  return skip_ws(s, i + 1) <= n ? -1 : count
}

BEGIN {
  SELF = ENVIRON["SELF"]
  production = ENVIRON["NODE_ENV"] == "production"
  f = ENVIRON["DEFAULTS_FILE"]
  while ((getline line < f) > 0) { eq = index(line, "="); if (eq > 1) dflt[substr(line, 1, eq - 1)] = substr(line, eq + 1) }
  close(f)

  n = split("SITE_URL BUSINESS_NAME BUSINESS_PHONE BUSINESS_ABN BUSINESS_EMAIL", names, " ")
  for (k = 1; k <= n; k++) {
    name = names[k]; v = trim(ENVIRON[name])
    if (v == "") {
      if (production) { missing = missing (missing == "" ? "" : ", ") name; nmissing++; continue }
      v = dflt[name]; fallback[name] = 1
      if (v == "") { problem(name " is not set, and the image has no value for it"); continue }
      warnings = warnings sprintf("%s: WARNING: %s is not set: serving the image placeholder \"%s\" (with NODE_ENV=production the container refuses to start)\n", SELF, name, v)
    }
    if (v ~ /[[:cntrl:]]/) { problem(name " contains a control character (a line break?)"); continue }
    if (index(v, "__TYRES_") || index(v, "tyres-site-url.invalid")) { problem(name " contains a template token"); continue }
    value[name] = v
  }

  if ("SITE_URL" in value) {
    site = tolower(value["SITE_URL"]); sub(/\/$/, "", site)
    if (site !~ /^https?:\/\/[a-z0-9]([a-z0-9.-]*[a-z0-9])?(:[0-9]+)?$/)
      problem("SITE_URL must be the public site origin, scheme and host without a path (https://www.yourbusiness.com.au), not \"" value["SITE_URL"] "\"")
    host = site; sub(/^https?:\/\//, "", host); sub(/:[0-9]+$/, "", host)
    if (production && reserved(host))
      problem("SITE_URL " site " is a reserved example host: crawlers would index it")
  }
  if ("BUSINESS_PHONE" in value) {
    phone = value["BUSINESS_PHONE"]; gsub(/[ \t]+/, " ", phone)
    tel = phone; gsub(/[^0-9+]/, "", tel); digits = tel; sub(/^\+/, "", digits)
    if (phone !~ /^\+?[0-9(][0-9 ().-]*[0-9]$/ || digits !~ /^[0-9]+$/ || length(digits) < 6 || length(digits) > 15)
      problem("BUSINESS_PHONE must be a phone number such as 08 9000 0000 or +61 8 9000 0000, not \"" value["BUSINESS_PHONE"] "\"")
    # Australian national numbers (0x xxxx xxxx) dial from anywhere as +61 x xxxx xxxx; 13/1300/1800 stay as they are.
    if (tel ~ /^0/ && length(tel) == 10) tel = "+61" substr(tel, 2)
  }
  if ("BUSINESS_ABN" in value) {
    a = value["BUSINESS_ABN"]; gsub(/ /, "", a)
    if (a !~ /^[0-9]+$/ || length(a) != 11)
      problem("BUSINESS_ABN must be the 11-digit ABN (51 824 753 556), not \"" value["BUSINESS_ABN"] "\"")
    else if (!fallback["BUSINESS_ABN"] && !abn_ok(a))
      problem("BUSINESS_ABN " value["BUSINESS_ABN"] " fails the ABN check digits (a typo?)")
    abn = substr(a, 1, 2) " " substr(a, 3, 3) " " substr(a, 6, 3) " " substr(a, 9, 3)
  }
  if ("BUSINESS_EMAIL" in value) {
    email = value["BUSINESS_EMAIL"]
    if (email !~ /^[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/)
      problem("BUSINESS_EMAIL must be an email address, not \"" email "\"")
    else if (production && reserved(tolower(substr(email, index(email, "@") + 1))))
      problem("BUSINESS_EMAIL " email " is at a reserved example domain")
  }

  if (missing != "")
    problem(missing (nmissing > 1 ? " are" : " is") " not set, and with NODE_ENV=production the image placeholders (such as " dflt["SITE_URL"] ") are never served to customers and crawlers")
  if (problems != "")
    fail("refusing to start; set the business details (Kubernetes: ConfigMap tyres-config; docker compose: .env):" problems)
  printf "%s", warnings

  ntok = split("https://tyres-site-url.invalid __TYRES_BUSINESS_NAME__ __TYRES_BUSINESS_TEL__ __TYRES_BUSINESS_PHONE__ __TYRES_BUSINESS_ABN__ __TYRES_BUSINESS_EMAIL__", tok, " ")
  raw[1] = site; raw[2] = value["BUSINESS_NAME"]; raw[3] = tel; raw[4] = phone; raw[5] = abn; raw[6] = email
  for (k = 1; k <= ntok; k++) {
    val["html", k] = esc_html(raw[k]); val["json", k] = esc_json(raw[k])
    val["xml", k] = esc_xml(raw[k]); val["text", k] = raw[k]
  }
}

FNR == 1 {
  if (out != "") close(out)
  rel = FILENAME; sub(/^\.\//, "", rel)
  out = ENVIRON["RENDER_OUT"] "/" rel
  if (rel ~ /\.html$/) kind = "html"
  else if (rel ~ /\.xml$/) kind = "xml"
  else if (rel ~ /\.txt$/) kind = "text"
  else fail("unexpected file in the template: " rel)
  inscript = 0; rendered++
}
{ print (kind == "html" ? render_html($0) : subst($0, kind)) > out }

END {
  if (failed) exit 1
  if (out != "") close(out)

  # config.json for the browser: the source file, its siteUrl and business replaced by the values above.
  f = ENVIRON["CONFIG_IN"]; src = ""
  while ((getline line < f) > 0) src = src line "\n"
  close(f)
  count = parse_object(src)
  if (count < 0) fail(f " is not a JSON object")
  json = "{\n"
  for (k = 1; k <= count; k++)
    if (pkey[k] != "\"siteUrl\"" && pkey[k] != "\"business\"") json = json "  " pkey[k] ": " pval[k] ",\n"
  json = json "  \"siteUrl\": \"" val["json", 1] "\",\n  \"business\": {\n" \
    "    \"name\": \"" val["json", 2] "\",\n    \"phone\": \"" val["json", 3] "\",\n" \
    "    \"phoneDisplay\": \"" val["json", 4] "\",\n    \"abn\": \"" val["json", 5] "\",\n" \
    "    \"email\": \"" val["json", 6] "\"\n  }\n}\n"
  cfg = ENVIRON["RENDER_OUT"] "/config.json"
  printf "%s", json > cfg
  close(cfg)
  printf "%s: %d files and config.json for %s (%s, %s, ABN %s, %s) in %s\n", SELF, rendered, site, raw[2], phone, abn, email, ENVIRON["RENDER_OUT"]
}
'

# C locale: the same byte-wise matching in busybox, mawk and gawk. Values reach awk through ENVIRON, never
# through -v (which would interpret backslashes).
# shellcheck disable=SC2086 # $files: one plain name per word (checked above)
(cd "$TEMPLATE_DIR" && SELF=$SELF RENDER_OUT=$RENDER_DIR/www CONFIG_IN=$SOURCE_DIR/config.json \
  DEFAULTS_FILE=$TEMPLATE_DIR/defaults.env LC_ALL=C awk "$RENDER_AWK" $files)

# A token left anywhere would put a stand-in in front of customers and crawlers.
left=$(grep -rl -e '__TYRES_' -e 'tyres-site-url\.invalid' "$RENDER_DIR/www" || true)
[ -z "$left" ] || fail "template tokens left in: $(printf '%s' "$left" | tr '\n' ' ')"

printf 'ok\n' >"$RENDER_DIR/ready"
