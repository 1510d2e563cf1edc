package commands_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/adapters/authz"
	sqlitestore "github.com/eventchat/eventchat/adapters/eventstore/sqlite"
	"github.com/eventchat/eventchat/adapters/idgen"
	"github.com/eventchat/eventchat/adapters/keystore"
	"github.com/eventchat/eventchat/adapters/payments"
	sqliteread "github.com/eventchat/eventchat/adapters/readstore/sqlite"
	"github.com/eventchat/eventchat/adapters/sealing"
	"github.com/eventchat/eventchat/adapters/smsoutbox"
	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/domain/catalog"
	"github.com/eventchat/eventchat/projections"
	"go.uber.org/zap"
)

func TestCommands(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Commands")
}

// plainHasher stands in for bcrypt, whose cost would dominate the suite;
// the handlers only need Hash and Matches to agree.
type plainHasher struct{}

func (plainHasher) Hash(s string) (string, error) { return "h:" + s, nil }
func (plainHasher) Matches(h, s string) bool      { return h != "" && h == "h:"+s }

// world is the application over real embedded stores in a temp dir, with
// the projections running.
type world struct {
	app    *commands.App
	events *sealing.Store // personal fields sealed, as the server's
	keys   *keystore.SQLite
	sealer *sealing.Sealer
	// blind names a claim, or the SMS codes of a phone, by the value.
	blind  func(string) string
	reads  *sqliteread.Store
	engine *projections.Engine
	// lookups find messages in the read models once the engine runs.
	lookups projections.Lookups
	outbox  string
	clock   atomic.Int64
}

func newWorld() *world {
	dir := GinkgoT().TempDir()
	w := &world{outbox: filepath.Join(dir, smsoutbox.FileName)}
	w.clock.Store(time.Date(2026, 11, 22, 8, 0, 0, 0, time.UTC).UnixMilli())
	var err error
	stored, err := sqlitestore.Open(filepath.Join(dir, "events.db"))
	Expect(err).NotTo(HaveOccurred())
	w.keys, err = keystore.Open(filepath.Join(dir, keystore.FileName))
	Expect(err).NotTo(HaveOccurred())
	w.sealer = sealing.New(w.keys, catalog.Registry())
	w.blind, err = w.sealer.Blind(context.Background())
	Expect(err).NotTo(HaveOccurred())
	w.events = sealing.NewStore(stored, w.sealer)
	w.reads, err = sqliteread.Open(filepath.Join(dir, "read.db"))
	Expect(err).NotTo(HaveOccurred())
	w.lookups = projections.Lookups{Q: w.reads, Log: w.events}
	w.app = w.newApp(1)
	w.engine = projections.NewEngine(w.events, w.reads, nil, catalog.Registry(),
		projections.All()...)
	w.lookups.Wait = w.engine.WaitFor
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{}, 2)
	go func() { defer func() { done <- struct{}{} }(); _ = w.engine.Run(ctx) }()
	go func() { defer func() { done <- struct{}{} }(); _ = w.app.Follow(ctx, w.events) }()
	DeferCleanup(func() {
		cancel()
		<-done
		<-done
		Expect(w.reads.Close()).To(Succeed())
		Expect(w.events.Close()).To(Succeed())
		Expect(w.keys.Close()).To(Succeed())
	})
	Expect(w.app.EnsureTenant(context.Background(), "x0001", "Default")).To(Succeed())
	return w
}

// newApp returns an application over the world's stores and clock; node
// tells apart the ids of different nodes.
func (w *world) newApp(node int64) *commands.App {
	policy, err := authz.New()
	Expect(err).NotTo(HaveOccurred())
	return commands.New(commands.Deps{
		Store: w.events, Keys: w.sealer, Blind: w.blind, Authz: policy, Hasher: plainHasher{}, Applies: w.reads,
		Messages:   &w.lookups,
		Personal:   &w.lookups,
		Notices:    &w.lookups,
		Deliveries: &w.lookups,
		SMS:        smsoutbox.New(w.outbox, zap.NewNop()),
		Payments:   payments.Operator{},
		NewID:      idgen.New(node, nil).Next, NewUUID: uuid.NewString,
		Now: func() time.Time { return time.UnixMilli(w.clock.Load()) },
	})
}

// node returns a second application over the same stores, as another
// server node would be, following the log.
func (w *world) node() *commands.App {
	app := w.newApp(2)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = app.Follow(ctx, w.events) }()
	DeferCleanup(func() { cancel(); <-done })
	return app
}

func (w *world) advance(d time.Duration) { w.clock.Add(d.Milliseconds()) }

// settle waits until the projections have folded the whole log.
func (w *world) settle() {
	head, err := w.events.Head(context.Background())
	Expect(err).NotTo(HaveOccurred())
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	Expect(w.engine.WaitFor(ctx, head)).To(BeTrue())
}

// lastCode reads the newest code the outbox holds for phone.
func (w *world) lastCode(phone string) string {
	code, err := smsoutbox.LastCode(w.outbox, phone)
	Expect(err).NotTo(HaveOccurred())
	return code
}

var phoneSeq atomic.Int64

// member registers and logs in a new member of x0001.
func (w *world) member(account string) commands.Principal {
	ctx := context.Background()
	phone := fmt.Sprintf("139%08d", phoneSeq.Add(1))
	Expect(w.app.SendSMSCode(ctx, "x0001", phone, "register")).To(Succeed())
	_, err := w.app.RegisterMember(ctx, commands.Register{
		Phone: phone, SMSCode: w.lastCode(phone), Account: account, Password: "pass1234", TenantCode: "x0001"})
	Expect(err).NotTo(HaveOccurred())
	in, err := w.app.LoginMember(ctx, commands.Login{Account: account, Password: "pass1234", TenantCode: "x0001"})
	Expect(err).NotTo(HaveOccurred())
	return in.Principal
}

// befriend makes a and b friends.
func (w *world) befriend(a, b commands.Principal) {
	ctx := context.Background()
	applied, err := w.app.RequestFriend(ctx, a, commands.RequestFriend{FriendMemberID: b.MemberID, Content: "hi"})
	Expect(err).NotTo(HaveOccurred())
	w.settle()
	_, err = w.app.AnswerFriendRequest(ctx, b, commands.AnswerFriendRequest{ID: applied.ID, Status: "accepted"})
	Expect(err).NotTo(HaveOccurred())
}

// viewer is p as the read models' queries know it.
func viewer(p commands.Principal) projections.Viewer {
	return projections.Viewer{Tenant: p.Tenant, Member: p.MemberID}
}
