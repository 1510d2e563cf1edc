package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"io/fs"
	"mime/multipart"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	pebblestore "github.com/eventchat/eventchat/adapters/eventstore/pebble"
	"github.com/eventchat/eventchat/commands"
)

// uploaded is the answer to an upload.
type uploaded struct {
	Code string `json:"code"`
	Msg  string `json:"msg"`
	Info string `json:"info"`
	Data struct {
		FilePath    string `json:"filePath"`
		FileName    string `json:"fileName"`
		Size        int64  `json:"size"`
		ContentType string `json:"contentType"`
	} `json:"data"`
}

// upload posts one multipart body: field "file" named fileName with content,
// unless field is another name.
func (s *testServer) upload(token, query, field, fileName string, content []byte) (int, uploaded) {
	GinkgoHelper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	Expect(w.WriteField("note", "ignored")).To(Succeed())
	part, err := w.CreateFormFile(field, fileName)
	Expect(err).NotTo(HaveOccurred())
	_, err = part.Write(content)
	Expect(err).NotTo(HaveOccurred())
	Expect(w.Close()).To(Succeed())
	req, err := http.NewRequest("POST", s.base+"/v1/sso/im/upload/v1"+query, &body)
	Expect(err).NotTo(HaveOccurred())
	req.Header.Set("Content-Type", w.FormDataContentType())
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	Expect(err).NotTo(HaveOccurred())
	defer resp.Body.Close()
	var out uploaded
	Expect(json.NewDecoder(resp.Body).Decode(&out)).To(Succeed())
	return resp.StatusCode, out
}

// fetch gets a path with the token in the header, and the extra headers.
func (s *testServer) fetch(path, token string, headers ...string) (*http.Response, []byte) {
	GinkgoHelper()
	req, err := http.NewRequest("GET", s.base+path, nil)
	Expect(err).NotTo(HaveOccurred())
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	Expect(err).NotTo(HaveOccurred())
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	Expect(err).NotTo(HaveOccurred())
	return resp, body
}

// rawGet sends a request line as given, for paths a client would clean.
func (s *testServer) rawGet(target, token string) (int, string) {
	GinkgoHelper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(s.base, "http://"))
	Expect(err).NotTo(HaveOccurred())
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(5 * time.Second))
	fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\nConnection: close\r\n\r\n", target, token)
	raw, err := io.ReadAll(conn)
	Expect(err).NotTo(HaveOccurred())
	var status int
	_, err = fmt.Sscanf(string(raw), "HTTP/1.1 %d", &status)
	Expect(err).NotTo(HaveOccurred())
	return status, string(raw)
}

// pngOf encodes a w x h picture.
func pngOf(w, h int) []byte {
	GinkgoHelper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for x := range w {
		for y := range h {
			img.Set(x, y, color.RGBA{uint8(x * 40), uint8(y * 60), 200, 255})
		}
	}
	var b bytes.Buffer
	Expect(png.Encode(&b, img)).To(Succeed())
	return b.Bytes()
}

var gif1x1 = []byte("GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;")

// createTenant appends a tenant to the event log of a server not yet started.
func createTenant(dataDir, code string) {
	GinkgoHelper()
	store, err := pebblestore.Open(filepath.Join(dataDir, "events"))
	Expect(err).NotTo(HaveOccurred())
	n := 0
	app := commands.New(commands.Deps{Store: store, Now: time.Now,
		NewUUID: func() string { n++; return fmt.Sprintf("00000000-0000-4000-8000-%012d", n) }})
	_, err = app.CreateTenant(context.Background(), code, "Second")
	Expect(err).NotTo(HaveOccurred())
	Expect(store.Close()).To(Succeed())
}

// blobFiles counts the stored files.
func blobFiles(dataDir string) int {
	GinkgoHelper()
	n := 0
	err := filepath.WalkDir(filepath.Join(dataDir, "blobs"), func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			n++
		}
		return err
	})
	Expect(err).NotTo(HaveOccurred())
	return n
}

var _ = Describe("Uploads and media messages", func() {
	var s *testServer
	var alice, bob member
	BeforeEach(func() {
		dir := GinkgoT().TempDir()
		createTenant(dir, "x0002")
		s = startServer(dir)
		alice, bob = s.register("alice001"), s.register("bob00001")
	})

	It("stores a picture and serves it back to members of its tenant only, with the token in the header or the query", func() {
		pic := pngOf(4, 3)
		status, up := s.upload(alice.Token, "", "file", "../../cat.png", pic)
		Expect(status).To(Equal(http.StatusOK), up.Info)
		Expect(up.Code).To(Equal("200"))
		Expect(up.Msg).To(Equal("success"))
		Expect(up.Data.FilePath).To(MatchRegexp(`^/v1/sso/im/file/x0001/[0-9a-f]{32}\.png$`))
		Expect(up.Data.FileName).To(Equal("cat.png"))
		Expect(up.Data.Size).To(Equal(int64(len(pic))))
		Expect(up.Data.ContentType).To(Equal("image/png"))

		resp, body := s.fetch(up.Data.FilePath, bob.Token)
		Expect(resp.StatusCode).To(Equal(http.StatusOK))
		Expect(body).To(Equal(pic))
		Expect(resp.Header.Get("Content-Type")).To(Equal("image/png"))
		Expect(resp.Header.Get("X-Content-Type-Options")).To(Equal("nosniff"))
		Expect(resp.Header.Get("Content-Disposition")).To(HavePrefix("inline"))

		resp, body = s.fetch(up.Data.FilePath+"?token="+bob.Token, "")
		Expect(resp.StatusCode).To(Equal(http.StatusOK))
		Expect(body).To(Equal(pic))

		resp, _ = s.fetch(up.Data.FilePath, "")
		Expect(resp.StatusCode).To(Equal(http.StatusUnauthorized))
		resp, _ = s.fetch(up.Data.FilePath+"?token=bad", "")
		Expect(resp.StatusCode).To(Equal(http.StatusUnauthorized))

		By("a member of another tenant")
		phone := "13712345678"
		s.ok("GET", "/v1/member/sms/send?phone="+phone+"&type=register&tenantCode=x0002", "", nil, nil)
		s.ok("POST", "/v1/member/memberInfo/register", "", map[string]string{
			"phone": phone, "smsCode": s.smsCode(phone), "account": "zed00001", "password": "pass1234", "tenantCode": "x0002"}, nil)
		var zed struct{ Token string }
		s.ok("POST", "/v1/member/memberInfo/login", "", map[string]string{"account": "zed00001", "password": "pass1234", "tenantCode": "x0002"}, &zed)
		resp, body = s.fetch(up.Data.FilePath, zed.Token)
		Expect(resp.StatusCode).To(Equal(http.StatusNotFound))
		Expect(string(body)).To(ContainSubstring(`"code":"404"`))
		resp, _ = s.fetch(strings.Replace(up.Data.FilePath, "/x0001/", "/x0002/", 1), zed.Token)
		Expect(resp.StatusCode).To(Equal(http.StatusNotFound))
	})

	It("serves a range of a file, and other files as attachments of their sniffed type", func() {
		pdf := []byte("%PDF-1.4\n" + strings.Repeat("0123456789", 100))
		status, up := s.upload(alice.Token, "?type=chat", "file", "report.exe", pdf)
		Expect(status).To(Equal(http.StatusOK), up.Info)
		Expect(up.Data.ContentType).To(Equal("application/pdf"))
		Expect(up.Data.FilePath).To(HaveSuffix(".pdf"))
		Expect(up.Data.FileName).To(Equal("report.exe"))

		resp, body := s.fetch(up.Data.FilePath, alice.Token, "Range", "bytes=5-8")
		Expect(resp.StatusCode).To(Equal(http.StatusPartialContent))
		Expect(string(body)).To(Equal("1.4\n"))
		Expect(resp.Header.Get("Content-Range")).To(Equal(fmt.Sprintf("bytes 5-8/%d", len(pdf))))
		Expect(resp.Header.Get("Content-Type")).To(Equal("application/pdf"))
		Expect(resp.Header.Get("Content-Disposition")).To(HavePrefix("attachment"))

		status, up = s.upload(alice.Token, "", "file", "page.png", []byte("<html><script>alert(1)</script></html>"))
		Expect(status).To(Equal(http.StatusOK), up.Info)
		Expect(up.Data.ContentType).To(Equal("application/octet-stream"))
		resp, _ = s.fetch(up.Data.FilePath, alice.Token)
		Expect(resp.Header.Get("Content-Type")).To(Equal("application/octet-stream"))
		Expect(resp.Header.Get("Content-Disposition")).To(HavePrefix("attachment"))
		Expect(resp.Header.Get("X-Content-Type-Options")).To(Equal("nosniff"))
	})

	It("refuses uploads that break the rules with a clear 4xx and stores nothing", func() {
		big := append(pngOf(2, 2), make([]byte, 5_000_000)...)
		cases := []struct {
			token, query, field, name string
			content                   []byte
			status                    int
			info                      string
		}{
			{alice.Token, "", "file", "big.png", big, 413, "A picture must be under 5MB"},
			{alice.Token, "?type=avatar", "file", "a.gif", gif1x1, 400, "A gif is not allowed as an avatar"},
			{alice.Token, "?type=avatar", "file", "a.png", []byte("%PDF-1.4 not a picture"), 400, "An avatar must be a jpg, jpeg or png picture"},
			{alice.Token, "?type=feedback", "file", "a.txt", []byte("hello"), 400, "An image must be chosen"},
			{alice.Token, "?fileType=picture", "file", "a.png", []byte("hello"), 400, "An image must be chosen"},
			{alice.Token, "", "other", "a.png", pngOf(2, 2), 400, "A file must be chosen"},
			{alice.Token, "?type=avatar", "other", "a.png", pngOf(2, 2), 400, "An image must be chosen"},
			{alice.Token, "", "file", "empty.txt", nil, 400, "The file is empty"},
			{alice.Token, "?type=bogus", "file", "a.png", pngOf(2, 2), 400, "unknown upload type, use chat, avatar or feedback"},
			{"", "", "file", "a.png", pngOf(2, 2), 401, "login expired, please log in again"},
			{"garbage", "", "file", "a.png", pngOf(2, 2), 401, "login expired, please log in again"},
		}
		for _, c := range cases {
			status, up := s.upload(c.token, c.query, c.field, c.name, c.content)
			Expect(status).To(Equal(c.status), "%s %s: %s", c.query, c.name, up.Info)
			Expect(up.Code).To(Equal(fmt.Sprint(c.status)))
			Expect(up.Info).To(Equal(c.info))
		}
		status, env := s.call("POST", "/v1/sso/im/upload/v1", alice.Token, map[string]string{"file": "x"})
		Expect(status).To(Equal(http.StatusBadRequest))
		Expect(env.Info).To(Equal("A file must be chosen"))
		Expect(blobFiles(s.dataDir)).To(BeZero())

		status, up := s.upload(alice.Token, "?type=avatar", "file", "me.png", pngOf(2, 2))
		Expect(status).To(Equal(http.StatusOK), up.Info)
		Expect(blobFiles(s.dataDir)).To(Equal(1))
	})

	It("caps a chunked upload's whole body, what follows the file too, and stores nothing past the cap", func() {
		// A picture, then another field of more than 100 MiB, of no
		// announced length.
		pr, pw := io.Pipe()
		w := multipart.NewWriter(pw)
		go func() {
			part, err := w.CreateFormFile("file", "a.png")
			if err == nil {
				_, err = part.Write(pngOf(2, 2))
			}
			if err == nil {
				part, err = w.CreateFormField("more")
			}
			if err == nil {
				_, err = io.Copy(part, io.LimitReader(zeros{}, 102<<20))
			}
			if err == nil {
				err = w.Close()
			}
			pw.CloseWithError(err)
		}()
		req, err := http.NewRequest("POST", s.base+"/v1/sso/im/upload/v1", pr)
		Expect(err).NotTo(HaveOccurred())
		req.Header.Set("Content-Type", w.FormDataContentType())
		req.Header.Set("Authorization", "Bearer "+alice.Token)
		resp, err := http.DefaultClient.Do(req)
		Expect(err).NotTo(HaveOccurred())
		defer resp.Body.Close()
		var out uploaded
		Expect(json.NewDecoder(resp.Body).Decode(&out)).To(Succeed())
		Expect(resp.StatusCode).To(Equal(http.StatusRequestEntityTooLarge), out.Info)
		Expect(out.Info).To(Equal("request body too large"))
		Expect(blobFiles(s.dataDir)).To(BeZero())
	})

	It("finds nothing outside the stored names", func() {
		status, up := s.upload(alice.Token, "", "file", "a.png", pngOf(2, 2))
		Expect(status).To(Equal(http.StatusOK))
		name := up.Data.FilePath[strings.LastIndex(up.Data.FilePath, "/")+1:]
		for _, target := range []string{
			"/v1/sso/im/file/x0001/../../../events.db",
			"/v1/sso/im/file/x0001/..%2f..%2fevents.db",
			"/v1/sso/im/file/x0001/" + name[:2] + "%2f" + name,
			"/v1/sso/im/file/..%2fx0001/" + name,
			"/v1/sso/im/file/x0001/" + strings.ToUpper(name),
			"/v1/sso/im/file/x0001/%2e%2e",
			"/v1/sso/im/file/x0001/secret.db",
		} {
			status, raw := s.rawGet(target, alice.Token)
			Expect(status).To(SatisfyAny(Equal(http.StatusNotFound), Equal(http.StatusBadRequest)), target)
			Expect(raw).NotTo(ContainSubstring("SQLite"), target)
		}
	})

	It("sends a picture message that the friend sees live, in history and in the conversation list", func() {
		s.befriend(alice, bob)
		socket := s.dial(bob)
		pic := pngOf(4, 3)
		status, up := s.upload(alice.Token, "", "file", "cat.png", pic)
		Expect(status).To(Equal(http.StatusOK))
		content, err := json.Marshal(map[string]any{"filePath": up.Data.FilePath, "fileName": up.Data.FileName,
			"size": up.Data.Size, "contentType": up.Data.ContentType, "width": 4, "height": 3})
		Expect(err).NotTo(HaveOccurred())
		var sent sendResult
		s.ok("POST", "/v1/message/send", alice.Token, map[string]string{"uuid": "pic-1", "chatType": "Friend", "to": bob.ID,
			"msgType": "Picture", "content": string(content)}, &sent)

		var pushed struct{ ID, MsgType, Content string }
		Expect(json.Unmarshal(next(socket, 11).Data, &pushed)).To(Succeed())
		Expect(pushed.ID).To(Equal(sent.ID))
		Expect(pushed.MsgType).To(Equal("Picture"))
		Expect(pushed.Content).To(MatchJSON(content))

		var history []struct {
			ID, MsgType, Content string
		}
		s.ok("GET", fmt.Sprintf("/v1/message/messagePush/history/list/page?friendMemberId=%s&after=%d", alice.ID, sent.Position), bob.Token, nil, &history)
		Expect(history).To(HaveLen(1))
		Expect(history[0].ID).To(Equal(sent.ID))
		Expect(history[0].MsgType).To(Equal("Picture"))
		Expect(history[0].Content).To(MatchJSON(content))
		var sessions []session
		s.ok("GET", "/v1/message/sessionInfo/list", bob.Token, nil, &sessions)
		Expect(sessions[0].LastMessageContent).To(Equal("[picture]"))

		resp, body := s.fetch(up.Data.FilePath, bob.Token)
		Expect(resp.StatusCode).To(Equal(http.StatusOK))
		Expect(body).To(Equal(pic))

		By("refusing media messages whose file is not this tenant's upload as described")
		media := func(change func(m map[string]any)) map[string]string {
			m := map[string]any{"filePath": up.Data.FilePath, "fileName": "cat.png", "size": up.Data.Size, "contentType": "image/png"}
			change(m)
			raw, err := json.Marshal(m)
			Expect(err).NotTo(HaveOccurred())
			return map[string]string{"uuid": "bad", "chatType": "Friend", "to": bob.ID, "msgType": "Picture", "content": string(raw)}
		}
		missing := strings.Replace(up.Data.FilePath, up.Data.FilePath[len(up.Data.FilePath)-36:len(up.Data.FilePath)-4], strings.Repeat("0", 32), 1)
		cases := []struct {
			body map[string]string
			info string
		}{
			{media(func(m map[string]any) { m["filePath"] = strings.Replace(up.Data.FilePath, "x0001", "x0002", 1) }), "the file of this message was not uploaded here"},
			{media(func(m map[string]any) { m["filePath"] = missing }), "the file of this message is not found, upload it again"},
			{media(func(m map[string]any) { m["size"] = up.Data.Size + 1 }), "the file of this message is not valid"},
			{media(func(m map[string]any) { m["contentType"] = "text/html" }), "the file of this message is not valid"},
			{map[string]string{"uuid": "bad", "chatType": "Friend", "to": bob.ID, "msgType": "Picture", "content": "just text"}, "the file of this message is not valid"},
		}
		for _, c := range cases {
			status, env := s.call("POST", "/v1/message/send", alice.Token, c.body)
			Expect(status).To(Equal(http.StatusBadRequest), c.body["content"])
			Expect(env.Info).To(Equal(c.info))
		}
		after := s.send(alice, bob, "after", "x")
		Expect(after.Position).To(Equal(sent.Position+1), "a refused send appended an event")
	})
})

// zeros reads as zero bytes without end.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}
