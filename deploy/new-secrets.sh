#!/bin/sh
# Makes, once, the secrets that every node of deploy/compose.yaml shares: bourse.env (BOURSE_DB and
# the sealing key, webhook signing key and operator token) and postgres-password, beside this script
# or in the folder given as its argument. It never overwrites them: new keys under a running
# deployment would leave its stored API secrets unreadable and its webhook signatures refused.
set -eu

dir=${1:-$(dirname "$0")}
env_file=$dir/bourse.env
password_file=$dir/postgres-password
for file in "$env_file" "$password_file"; do
  if [ -e "$file" ]; then
    echo "$file exists: kept (delete both files first to make new secrets)" >&2
    exit 1
  fi
done

umask 077
mkdir -p "$dir"
# Hex, so the password needs no escaping inside the postgres:// URL.
password=$(openssl rand -hex 24)
# PKCS#8 PEM on one line, its line breaks as \n: Compose turns them back into line breaks inside
# a double-quoted value.
webhook_key=$(openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 2>/dev/null | awk '{ printf "%s\\n", $0 }')

printf '%s\n' "$password" >"$password_file"
# printf, not echo: some shells' echo would turn the key's \n back into line breaks.
{
  printf 'BOURSE_DB=postgres://bourse:%s@postgres:5432/bourse\n' "$password"
  printf 'BOURSE_SECRET_KEY=%s\n' "$(openssl rand -base64 32)"
  printf 'BOURSE_WEBHOOK_KEY="%s"\n' "$webhook_key"
  printf 'BOURSE_ADMIN_TOKEN=%s\n' "$(openssl rand -hex 32)"
} >"$env_file"
echo "wrote $env_file and $password_file (mode 0600): keep a copy with the database's backups"
