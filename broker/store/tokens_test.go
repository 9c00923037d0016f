package store

import (
	"context"
	"testing"
)

// TestReplaceTokenLeavesOneLiveToken (#39.5): ReplaceToken revokes every earlier live token of
// the device in the same step, leaves other devices' alone, and a token's last use is kept
// across a restart.
func TestReplaceTokenLeavesOneLiveToken(t *testing.T) {
	dir := t.TempDir()
	st, err := Init(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var old []string
	for range 3 {
		tok, _, err := st.CreateToken(ctx, "reachy", []string{"turn", "link"}, "")
		if err != nil {
			t.Fatal(err)
		}
		old = append(old, tok)
	}
	other, _, err := st.CreateToken(ctx, "laptop", []string{"text"}, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.VerifyToken(ctx, old[0]); err != nil {
		t.Fatal(err)
	}
	tok, info, revoked, err := st.ReplaceToken(ctx, "reachy", []string{"turn", "link"}, "")
	if err != nil || revoked != 3 {
		t.Fatalf("replace: %d revoked, %v", revoked, err)
	}
	for _, o := range old {
		if _, err := st.VerifyToken(ctx, o); err == nil {
			t.Fatal("a token made before the replacement still verifies")
		}
	}
	for _, ok := range []string{tok, other} {
		if _, err := st.VerifyToken(ctx, ok); err != nil {
			t.Fatalf("a token that should work was refused: %v", err)
		}
	}
	st.Close()
	if st, err = Open(dir); err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	live, used := 0, 0
	list, _ := st.ListTokens(ctx, "reachy")
	for _, ti := range list {
		if ti.Revoked == nil {
			live++
			if ti.ID != info.ID {
				t.Fatalf("the live token is %s, want the replacement %s", ti.ID, info.ID)
			}
		}
		if ti.LastUsed != nil {
			used++
		}
	}
	if live != 1 || used != 2 {
		t.Fatalf("after a restart: %d live tokens and %d with a last use, want 1 and 2 (%+v)", live, used, list)
	}
}
