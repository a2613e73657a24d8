"""C2SP signed notes, checkpoints, cosignatures and proofs, against the
published examples: Go's golang.org/x/mod/sumdb/note test vectors (BSD
licence, The Go Authors), transparency-dev/formats' cosignature vectors (BSD
licence, The Go Authors), and the examples in the C2SP specifications
(c2sp.org/tlog-checkpoint, tlog-cosignature, tlog-proof; CC BY 4.0)."""

import base64
import hashlib
import struct

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from ledger import notes, tlog
from ledger.errors import BadInput, CheckpointRefuted

# golang.org/x/mod sumdb/note/note_test.go
PETER_SKEY = "PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz"
PETER_VKEY = "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW"
ENOCH_VKEY = "EnochRoot+af0cfe78+ATtqJ7zOtqQtYqOo0CpvDXNlMhV3HeJDpjrASKGLWdop"
TEXT = "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n"
PETER_SIG = "x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM="
ENOCH_SIG = "rwz+eBzmZa0SO3NbfRGzPCpDckykFXSdeX+MNtCOXm2/5n2tiOHp+vAF1aGrQ5ovTG01oOTGwnWLox33WWd1RvMc+QQ="
# transparency-dev/formats note/note_cosigv1_test.go
REMORA_VKEY = "remora.n621.de+da77ade7+BOvN63jn/bLvkieywe8R6UYAtVtNbZpXh34x7onlmtw2"
COSIG_1727964367 = ("ZGhGuQAAAABm/qTPeyKXD+R2rzyQsxPiP8mXum7qq/iF0u4vanlqJyocWODBt97w9uL+8qT7S5gxEHWWOworDcFi"
                    "EBYJXORmnFBOBA==")
# c2sp.org/tlog-checkpoint and tlog-cosignature
SOFA = ("example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n\n"
        "\u2014 example.com/behind-the-sofa Az3grlgtzPICa5OS8npVmf1Myq/5IZniMp+ZJurmRDeOoRDe4URYN7u5/Zhcyv2q1gGzGku9nTo"
        "+zyWE+xeMcTOAYQ8=\n"
        "\u2014 witness.example.com/w1 jWbPPwAAAABkGFDLEZMHwSRaJNiIDoe9DYn/zXcrtPHeolMI5OWXEhZCB9dlrDJsX3b2oyin1nPZ"
        "qhf5nNo0xUe+mbIUBkBIfZ+qnA==\n")


def test_go_signer_and_verifier_keys_are_read_and_written_back():
    signer = notes.parse_skey(PETER_SKEY, "the test key")
    assert signer.skey == PETER_SKEY and signer.verifier.vkey == PETER_VKEY
    assert notes.parse_vkey(PETER_VKEY) == signer.verifier and notes.parse_vkey(ENOCH_VKEY).name == "EnochRoot"


def test_signing_gives_go_s_note_to_the_byte():
    # Ed25519 is deterministic (RFC 8032): the same key over the same text gives Go's very signature.
    signer = notes.parse_skey(PETER_SKEY, "the test key")
    assert signer.sign(TEXT) == PETER_SIG
    note = notes.parse_note(f"{TEXT}\n\u2014 PeterNeumann {PETER_SIG}\n\u2014 EnochRoot {ENOCH_SIG}\n")
    assert note.text == TEXT and [s.name for s in note.signatures] == ["PeterNeumann", "EnochRoot"]
    for signature, vkey in zip(note.signatures, (PETER_VKEY, ENOCH_VKEY)):
        verifier = notes.parse_vkey(vkey)
        assert signature.by(verifier) and verifier.verifies(TEXT, signature.signature)
        assert not verifier.verifies(TEXT.replace("problem", "trouble"), signature.signature)


@pytest.mark.parametrize("mangled", [
    PETER_VKEY[:-1], PETER_VKEY + "A", PETER_VKEY.replace("c74f20a3", "c74f20a4"),
    PETER_VKEY.replace("PeterNeumann", "PeterNeuman"), PETER_VKEY.replace("+A", "+Z", 1),
    "PeterNeumann+cc469956+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TWBADKEY==",  # Go's: wrong length
    "PeterNeumann+173116ae+ZRpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW",  # Go's: unknown algorithm
    "bananas.sigstore.dev+12344556", "rekor.sigstore.dev+12345678+THIS_IS_NOT_BASE64!", "a b+00000000+AQ=="])
def test_mangled_verifier_keys_are_refused(mangled):
    with pytest.raises(BadInput):
        notes.parse_vkey(mangled)


def test_mangled_signer_keys_are_refused():
    for cut in (PETER_SKEY[:-2], PETER_SKEY[8:], PETER_SKEY.replace("c74f20a3", "c74f20a4"), "PRIVATE+KEY+x"):
        with pytest.raises(BadInput):
            notes.parse_skey(cut, "the test key")


@pytest.mark.parametrize("bad", [
    TEXT, TEXT + "\n", f"{TEXT}\n\u2014 PeterNeumann {PETER_SIG}", f"\x01{TEXT}\n\u2014 PeterNeumann {PETER_SIG}\n",
    f"{TEXT}\n\u2014 Bad Name {PETER_SIG}\n", f"{TEXT}\n\u2014 PeterNeumann {PETER_SIG}\nUnexpected line.\n"])
def test_malformed_notes_are_refused(bad):
    # Go's own list of malformed messages (TestOpen).
    with pytest.raises(BadInput):
        notes.parse_note(bad)


def test_the_cosignature_format_of_c2sp_tlog_cosignature():
    # The key ID of a cosignature/v1 key is SHA-256(name || "\n" || 0x04 || public key)[:4].
    remora = notes.parse_vkey(REMORA_VKEY)
    assert remora.kind == notes.COSIGNATURE_V1 and remora.key_id.hex() == "da77ade7"
    # A cosignature is key ID || 8-byte big-endian POSIX time || Ed25519 signature.
    raw = base64.b64decode(COSIG_1727964367)
    assert notes.timestamp_of(notes.Signature("w", raw[:4], raw[4:], COSIG_1727964367)) == 1727964367
    witness = notes.generate("ann.example/witness", notes.COSIGNATURE_V1)
    body = "example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n"
    line = base64.b64decode(witness.sign(body, 1679315147))
    public = witness.verifier.public
    assert line[:4] == hashlib.sha256(b"ann.example/witness\n\x04" + public).digest()[:4]
    assert struct.unpack(">Q", line[4:12])[0] == 1679315147
    # The signed message, written out as the spec gives it.
    Ed25519PublicKey.from_public_bytes(public).verify(
        line[12:], b"cosignature/v1\ntime 1679315147\n" + body.encode())
    assert witness.verifier.verifies(body, line[4:]) and not witness.verifier.verifies(body.upper(), line[4:])


def test_the_spec_s_checkpoint_reads_and_its_signatures_are_ignored_without_their_keys():
    checkpoint = tlog.parse_checkpoint(SOFA)
    assert (checkpoint.origin, checkpoint.size, checkpoint.root_b64) == (
        "example.com/behind-the-sofa", 20852163, "CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=")
    assert [s.name for s in checkpoint.note.signatures] == ["example.com/behind-the-sofa", "witness.example.com/w1"]
    assert checkpoint.note.render() == SOFA
    # Signed-note: signatures from unknown keys are ignored; with none known, the note is refused.
    with pytest.raises(CheckpointRefuted, match="signed by no log key"):
        tlog.signed_by(checkpoint, [notes.parse_vkey(PETER_VKEY)], "the checkpoint", "this test")
    assert tlog.cosigned_by(checkpoint, [notes.parse_vkey(REMORA_VKEY)], "the checkpoint") == []


@pytest.mark.parametrize("bad", [
    "example.com/log\n012\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n\n\u2014 a QUJDREVGRw==\n",  # leading zero
    "example.com/log\n-1\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n\n\u2014 a QUJDREVGRw==\n",
    "example.com/log\n12\nnot a hash\n\n\u2014 a QUJDREVGRw==\n",
    "example.com/log\n12\n\n\u2014 a QUJDREVGRw==\n"])
def test_malformed_checkpoints_are_refused(bad):
    with pytest.raises(BadInput):
        tlog.parse_checkpoint(bad)


def test_a_checkpoint_signed_by_our_key_and_altered_is_refused():
    log = notes.generate("tallystick/test/00000000", notes.ED25519)
    body = tlog.body(log.name, 5, b"\x01" * 32)
    note = f"{body}\n\u2014 {log.name} {log.sign(body)}\n"
    assert tlog.signed_by(tlog.parse_checkpoint(note), [log.verifier], "it", "this test") == log.verifier
    altered = note.replace("\n5\n", "\n6\n")
    with pytest.raises(CheckpointRefuted, match="does not verify"):
        tlog.signed_by(tlog.parse_checkpoint(altered), [log.verifier], "it", "this test")


def test_the_spec_s_proof_layout_reads_and_writes_back():
    # c2sp.org/tlog-proof: header, optional extra, index, the hashes, a blank line, the checkpoint.
    path = [hashlib.sha256(bytes([i])).digest() for i in range(3)]
    text = tlog.format_proof(73894, path, SOFA, extra=b"age-v1.2.1-darwin-arm64.tar.gz")
    assert text.startswith("c2sp.org/tlog-proof@v1\nextra YWdlLXYxLjIuMS1kYXJ3aW4tYXJtNjQudGFyLmd6\nindex 73894\n")
    proof = tlog.parse_proof(text)
    assert (proof.index, list(proof.path), proof.extra) == (73894, path, b"age-v1.2.1-darwin-arm64.tar.gz")
    assert proof.checkpoint.note.render() == SOFA
    assert tlog.parse_proof(tlog.format_proof(0, [], SOFA)).path == ()
    for bad in (text.replace("index 73894", "index 073894"), text.replace("@v1", "@v2"), text.split("\n\n")[0]):
        with pytest.raises(BadInput):
            tlog.parse_proof(bad)
