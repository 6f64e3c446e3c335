# Fires one event through `hookline serve` (standard library only).
# usage: python3 client.py SOCKET EVENT INPUT_JSON [CWD]
import json, os, socket, sys

def fire(sock_path, event, input, cwd):
    with socket.socket(socket.AF_UNIX) as s:
        s.connect(sock_path)
        req = {"jsonrpc": "2.0", "id": 1, "method": "fire", "params": {"event": event, "input": input, "cwd": cwd}}
        s.sendall((json.dumps(req) + "\n").encode())
        return json.loads(s.makefile().readline())

if __name__ == "__main__":
    cwd = sys.argv[4] if len(sys.argv) > 4 else os.getcwd()
    print(json.dumps(fire(sys.argv[1], sys.argv[2], json.loads(sys.argv[3]), cwd)))
