"""Signed REST calls with Python `requests`: the demo user's account, then a limit order and its cancel.

Usage: python3 examples/quickstart/signed.py [http://127.0.0.1:8080] [data-dir]
"""
import hashlib
import hmac
import json
import sys
import time
from urllib.parse import urlencode

import requests

BASE = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8080"
DATA = sys.argv[2] if len(sys.argv) > 2 else "data"
with open(f"{DATA}/demo-credentials.json") as f:
    creds = json.load(f)
API_KEY, SECRET = creds["apiKey"], creds["secretKey"]


def signed(method, path, params=None):
    """Query (GET/DELETE) or form body (POST/PUT), with timestamp and an HMAC-SHA256 signature of that text."""
    text = urlencode({**(params or {}), "timestamp": int(time.time() * 1000)})
    signature = hmac.new(SECRET.encode(), text.encode(), hashlib.sha256).hexdigest()
    payload = f"{text}&signature={signature}"
    url = f"{BASE}/openapi/v1/{path}"
    headers = {"X-BH-APIKEY": API_KEY}
    if method in ("POST", "PUT"):
        headers["Content-Type"] = "application/x-www-form-urlencoded"
        response = requests.request(method, url, data=payload, headers=headers, timeout=10)
    else:
        response = requests.request(method, f"{url}?{payload}", headers=headers, timeout=10)
    body = response.json()
    if response.status_code != 200:
        raise RuntimeError(f"{method} {path}: HTTP {response.status_code} {body}")
    return body


account = signed("GET", "account")
print({b["asset"]: b["free"] for b in account["balances"]})
order = signed("POST", "order", {"symbol": "BTCUSDT", "side": "BUY", "type": "LIMIT",
                                 "timeInForce": "GTC", "quantity": "0.001", "price": "50000"})
print("order", order["orderId"], order["status"])
canceled = signed("DELETE", "order", {"orderId": order["orderId"]})
print("canceled", canceled["orderId"], canceled["status"])
