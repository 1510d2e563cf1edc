package friend_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestFriend(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Friend")
}
