# fhsum.fish: fish completion for fhsum and its sha3-*sum links, installed
# in fish/vendor_completions.d.  It completes options, the names -a takes
# and the kernels --kernel takes (from the completed command's own
# --list-algorithms and --list-kernels, so a build tree's fhsum offers its
# own) and file names.

# The kernels for --kernel, a comma-separated list: the first column of
# the completed command's --list-kernels (fhsum's when that command cannot
# be run or is not named as fhsum is), less its header and its # lines,
# each after the names already in the list and not one of them.  A
# FHSUM_KERNEL in the environment that names no kernel would make
# --list-kernels fail: it is left out.
function __fhsum_kernels
    set -l cmd (commandline -opc)[1]
    string match -qr -- '(^|/)(fhsum|sha3-.*sum)$' $cmd; and command -q -- $cmd
    or set cmd fhsum
    command -q -- $cmd; or return
    set -l list (string replace -r -- '^--kernel=' '' (commandline -ct))
    set -l head (string replace -r -- '[^,]*$' '' $list)
    set -l named (string split , -- $head)
    set -lu FHSUM_KERNEL
    for name in ($cmd --list-kernels 2>/dev/null | string match -rv '^(KERNEL\b|#|$)' | string replace -r '\s.*' '')
        contains -- $name $named; or echo $head$name
    end
end

# The names -a takes: the first column of the completed command's
# --list-algorithms, as for the kernels above.
function __fhsum_algorithms
    set -l cmd (commandline -opc)[1]
    string match -qr -- '(^|/)(fhsum|sha3-.*sum)$' $cmd; and command -q -- $cmd
    or set cmd fhsum
    command -q -- $cmd; or return
    $cmd --list-algorithms 2>/dev/null | string match -rv '^(ALGORITHM\b|#|$)' | string replace -r '\s.*' ''
end

# The options, one a line.
complete -c fhsum -s a -l algorithm -x -a '(__fhsum_algorithms)' -d 'Hash with this algorithm'
complete -c fhsum -s b -l binary -d 'Read in binary mode'
complete -c fhsum -s c -l check -d 'Read checksums from the files and check them'
complete -c fhsum -l only -r -F -d 'With -c, check only the entries of this name'
complete -c fhsum -l expect -x -d 'Check each file against this digest (hex or base64)'
complete -c fhsum -s l -l length -x -a '224 256 384 512' -d 'Digest length in bits'
complete -c fhsum -l tag -d 'Create a BSD-style checksum'
complete -c fhsum -l untagged -d 'Undo an earlier --tag'
complete -c fhsum -s t -l text -d 'Read in text mode'
complete -c fhsum -s z -l zero -d 'End each output line with NUL, not newline'
complete -c fhsum -l base64 -d 'Print digests in base64'
complete -c fhsum -l raw -d 'Write the digest bytes alone, for one input'
complete -c fhsum -l no-names -d 'Print only the digests'
complete -c fhsum -l sfv -d 'Write an SFV list of CRC-32s'
complete -c fhsum -l part-size -x -d 'The S3 value of an upload in parts of this size'
complete -c fhsum -l ignore-missing -d 'Do not fail or report status for missing files'
complete -c fhsum -l quiet -d 'Do not print OK for each verified file'
complete -c fhsum -l status -d 'Output nothing, the status code shows success'
complete -c fhsum -l strict -d 'Exit non-zero for improperly formatted lines'
complete -c fhsum -s w -l warn -d 'Warn about improperly formatted lines'
complete -c fhsum -l meta -d 'Put size and mtime comment lines before each line'
complete -c fhsum -l audit -r -F -d 'Say what each file is against this list'
complete -c fhsum -l update -r -F -d 'Rewrite this list to match the files'
complete -c fhsum -l prune -d 'With --update, drop missing and rename moved lines'
complete -c fhsum -l no-wait -d 'With --update or --scrub, fail if another run is writing LIST'
complete -c fhsum -l scrub -r -F -d 'Verify this list, the longest unverified first, and stamp it'
complete -c fhsum -l max-time -x -d 'With --scrub, stop starting files after this long (90, 15m, 2h)'
complete -c fhsum -l max-bytes -x -d 'With --scrub, stop starting files after this many bytes (2G)'
complete -c fhsum -l against -r -F -d 'With --audit, compare its list with this one'
complete -c fhsum -l json -d 'Print JSON Lines, one object per file'
complete -c fhsum -s r -l recursive -d 'Hash the regular files under directory operands'
complete -c fhsum -l files-from -r -F -d 'Read the names from a file, one per line'
complete -c fhsum -l files0-from -r -F -d 'Read the names from a file, NUL-separated'
complete -c fhsum -l exclude -x -d 'Leave out the names a pattern matches (-r, --audit, --update, --scrub)'
complete -c fhsum -l exclude-from -r -F -d 'Read --exclude patterns from a file, one a line'
complete -c fhsum -s j -l threads -x -d 'Hash with N threads'
complete -c fhsum -l no-mmap -d 'Read every file, map none'
complete -c fhsum -l io-depth -x -d 'Keep N reads in flight ahead of the hashing threads'
complete -c fhsum -l progress -d 'Show progress on a terminal from the start'
complete -c fhsum -l no-progress -d 'Never show progress'
complete -c fhsum -l kernel -x -a '(__fhsum_kernels)' -d 'Use these kernels'
complete -c fhsum -l list-kernels -d 'List the kernels and which this CPU runs'
complete -c fhsum -l list-algorithms -d 'List the algorithms, their names, tags and lengths'
complete -c fhsum -l debug -d 'Name the chosen kernels on standard error'
complete -c fhsum -l benchmark -d 'Measure every usable kernel and print MB/s'
complete -c fhsum -l help -d 'Display help and exit'
complete -c fhsum -l version -d 'Output version information and exit'

# The links fhsum installs complete as fhsum does.
for link in sha3-224sum sha3-256sum sha3-384sum sha3-512sum
    complete -c $link -w fhsum
end
