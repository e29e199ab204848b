package desktoptest

import (
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The least of an X11 client the tests need, spoken on the X server's
// socket (the X Window System Protocol, X11R7.7: connection setup,
// WarpPointer and QueryPointer): no X library is in the module's
// dependencies, and xdotool is not among the tools the tests install.

// screenSize is the screen the desktop test runs on: the smallest that
// every window promises to fit (issue 42 item 5; 1280×720 binds the height,
// which app/ui's TestWindowsFit checks).
var screenSize = [2]int{1024, 768}

// parkPointer moves the X server's pointer to the screen's bottom-right
// pixel, outside every window the app opens at (0, 0), and checks that it
// is there. Xvfb starts it at the screen's centre, over the app's window on
// a small screen: with the pointer over a window the app panicked twice in
// about twenty runs inside Fyne 2.7's mouse-move callback (goCursorPosCB,
// the path of fyne-io/fyne#5981).
func parkPointer(t testing.TB, display string, width, height int) {
	t.Helper()
	c, err := net.Dial("unix", "/tmp/.X11-unix/X"+strings.TrimPrefix(display, ":"))
	if err != nil {
		t.Fatalf("connect to the X server %s: %v", display, err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	le := binary.LittleEndian
	// Connection setup: little-endian, protocol 11.0, no authorization
	// (Xvfb admits local clients, as it does the app and ImageMagick).
	if _, err := c.Write([]byte{'l', 0, 11, 0, 0, 0, 0, 0, 0, 0, 0, 0}); err != nil {
		t.Fatal(err)
	}
	head := make([]byte, 8)
	if _, err := io.ReadFull(c, head); err != nil {
		t.Fatalf("X connection setup: %v", err)
	}
	more := make([]byte, 4*int(le.Uint16(head[6:])))
	if _, err := io.ReadFull(c, more); err != nil {
		t.Fatalf("X connection setup: %v", err)
	}
	if head[0] != 1 {
		t.Fatalf("the X server refused the connection: %q", more[:min(int(head[1]), len(more))])
	}
	// The first screen's root window follows the vendor string (padded
	// to 4 bytes) and the pixmap formats (8 bytes each).
	vendor, formats := int(le.Uint16(more[16:])), int(more[21])
	off := 32 + (vendor+3)/4*4 + 8*formats
	if off+4 > len(more) {
		t.Fatalf("X connection setup: a reply of %d bytes has no screen", len(more))
	}
	root := le.Uint32(more[off:])

	warp := make([]byte, 24)
	warp[0] = 41 // WarpPointer
	le.PutUint16(warp[2:], 6)
	le.PutUint32(warp[8:], root) // source None, destination the root
	le.PutUint16(warp[20:], uint16(width-1))
	le.PutUint16(warp[22:], uint16(height-1))
	query := make([]byte, 8)
	query[0] = 38 // QueryPointer
	le.PutUint16(query[2:], 2)
	le.PutUint32(query[4:], root)
	if _, err := c.Write(append(warp, query...)); err != nil {
		t.Fatal(err)
	}
	reply := make([]byte, 32)
	if _, err := io.ReadFull(c, reply); err != nil {
		t.Fatalf("QueryPointer: %v", err)
	}
	if reply[0] != 1 {
		t.Fatalf("the X server answered error %d to WarpPointer or QueryPointer", reply[1])
	}
	if x, y := int(le.Uint16(reply[16:])), int(le.Uint16(reply[18:])); x != width-1 || y != height-1 {
		t.Fatalf("the pointer is at (%d,%d) after moving it to (%d,%d)", x, y, width-1, height-1)
	}
}

// xWindow is a top-level window as xwininfo describes it.
type xWindow struct {
	id, name            string
	x, y, width, height int
	viewable            bool
}

func (w xWindow) String() string {
	return fmt.Sprintf("%s %q %dx%d+%d+%d", w.id, w.name, w.width, w.height, w.x, w.y)
}

// topWindows lists the root window's children that are on screen.
func topWindows(t *testing.T, display string) []xWindow {
	t.Helper()
	env := append(os.Environ(), "DISPLAY="+display)
	list := exec.Command("xwininfo", "-root", "-children")
	list.Env = env
	out, err := list.Output()
	if err != nil {
		t.Fatalf("xwininfo -root -children: %v", err)
	}
	var wins []xWindow
	for _, m := range regexp.MustCompile(`(?m)^\s+(0x[0-9a-f]+) (\(has no name\)|"(.*?)"):`).FindAllStringSubmatch(string(out), -1) {
		info := exec.Command("xwininfo", "-id", m[1])
		info.Env = env
		out, err := info.Output()
		if err != nil {
			continue // gone since the list
		}
		field := func(name string) int {
			f := regexp.MustCompile(`(?m)^\s+` + regexp.QuoteMeta(name) + `:\s+(-?\d+)`).FindStringSubmatch(string(out))
			if f == nil {
				t.Fatalf("xwininfo -id %s says no %s:\n%s", m[1], name, out)
			}
			n, _ := strconv.Atoi(f[1])
			return n
		}
		w := xWindow{id: m[1], name: m[3], x: field("Absolute upper-left X"), y: field("Absolute upper-left Y"),
			width: field("Width"), height: field("Height"), viewable: strings.Contains(string(out), "Map State: IsViewable")}
		if w.viewable {
			wins = append(wins, w)
		}
	}
	return wins
}

// checkWindowsFit fails for every window on screen that does not lie
// inside the screen, and for the named windows that are not on screen.
func checkWindowsFit(t *testing.T, display, when string, names ...string) {
	t.Helper()
	wins := topWindows(t, display)
	for _, w := range wins {
		if w.x < 0 || w.y < 0 || w.x+w.width > screenSize[0] || w.y+w.height > screenSize[1] {
			t.Errorf("%s: window %s ends outside the %dx%d screen", when, w, screenSize[0], screenSize[1])
		} else {
			t.Logf("%s: window %s", when, w)
		}
	}
	for _, name := range names {
		found := false
		for _, w := range wins {
			found = found || w.name == name
		}
		if !found {
			t.Errorf("%s: no window %q on screen among %v", when, name, wins)
		}
	}
}
