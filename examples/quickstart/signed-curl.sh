#!/bin/sh
# Signed REST calls with curl + openssl against a Bourse started with `npm start`.
# Usage: sh examples/quickstart/signed-curl.sh [base-url] [data-dir]
set -eu
BASE=${1:-http://127.0.0.1:8080}
CREDS=${2:-data}/demo-credentials.json
KEY=$(node -p "JSON.parse(require('fs').readFileSync('$CREDS', 'utf8')).apiKey")
SECRET=$(node -p "JSON.parse(require('fs').readFileSync('$CREDS', 'utf8')).secretKey")

sign() { printf '%s' "$1" | openssl dgst -sha256 -hmac "$SECRET" | sed 's/^.*= //'; }

# 1. GET /openapi/v1/account: the signature covers the query string.
QUERY="timestamp=$(date +%s000)"
curl -s -H "X-BH-APIKEY: $KEY" "$BASE/openapi/v1/account?$QUERY&signature=$(sign "$QUERY")"
echo

# 2. POST /openapi/v1/order with a form body: the signature covers the body.
BODY="symbol=BTCUSDT&side=BUY&type=LIMIT&timeInForce=GTC&quantity=0.001&price=50000&timestamp=$(date +%s000)"
curl -s -X POST -H "X-BH-APIKEY: $KEY" -H 'Content-Type: application/x-www-form-urlencoded' \
  --data "$BODY&signature=$(sign "$BODY")" "$BASE/openapi/v1/order"
echo
