#!/usr/bin/env bash
# Nightly backup of Paydesk's PostgreSQL database: a pg_dump in custom format (restore with
# pg_restore, docs/going-live.md "Restore drill"), kept for PAYDESK_BACKUP_KEEP_DAYS days.
# Reads DATABASE_URL from the environment (the systemd unit loads /etc/paydesk/paydesk.env).
set -euo pipefail
: "${DATABASE_URL:?DATABASE_URL must be set}"
dir=${PAYDESK_BACKUP_DIR:-/var/backups/paydesk}
keep=${PAYDESK_BACKUP_KEEP_DAYS:-14}
mkdir -p "$dir"
umask 077
file="$dir/paydesk-$(date -u +%Y%m%dT%H%M%SZ).dump"
# The password travels in PGPASSWORD, not on the command line, where `ps` would show it to every
# user of the host. Node (Paydesk's own runtime) splits the URL. Written to a temporary name first, so
# a failed dump never looks complete.
password=$(node -e 'process.stdout.write(decodeURIComponent(new URL(process.argv[1]).password))' "$DATABASE_URL")
if [ -n "$password" ]; then export PGPASSWORD=$password; fi
url=$(node -e 'const u = new URL(process.argv[1]); u.password = ""; process.stdout.write(u.href)' "$DATABASE_URL")
pg_dump --format=custom --no-owner --dbname="$url" --file="$file.partial"
mv "$file.partial" "$file"
find "$dir" -name 'paydesk-*.dump' -mtime +"$keep" -delete
echo "$file"
