// Fires one event through `hookline serve` (standard library only).
// usage: go run client.go SOCKET EVENT INPUT_JSON [FOLDER]   (default: the current folder)
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
)

func main() {
	conn, err := net.Dial("unix", os.Args[1])
	if err != nil {
		panic(err)
	}
	defer conn.Close()
	cwd := "."
	if len(os.Args) > 4 {
		cwd = os.Args[4] // the folder whose hooks fire
	}
	cwd, _ = filepath.Abs(cwd) // serve takes an absolute folder
	req := map[string]any{"jsonrpc": "2.0", "id": 1, "method": "fire",
		"params": map[string]any{"event": os.Args[2], "input": json.RawMessage(os.Args[3]), "cwd": cwd}}
	json.NewEncoder(conn).Encode(req) // one JSON object and a newline
	line, _ := bufio.NewReader(conn).ReadString('\n')
	fmt.Print(line)
}
