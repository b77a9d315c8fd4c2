# Sourced by .ci/run and scripts/roofline: finds a JDK >= 22 (the Foreign Function & Memory API is final since 22).
# find_jdk sets JAVA_HOME and puts its bin/ first on PATH, or prints the install step and returns 1.
# Order: $JAVA_HOME when it is a JDK >= 22, else the newest JDK >= 22 under /usr/lib/jvm.

java_major() { # prints the feature version of the JDK at $1, or nothing
    local v
    v=$("$1/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p') || true
    echo "${v%%.*}"
}

find_jdk() {
    local jdk="" best=0 d v
    if [[ -n "${JAVA_HOME:-}" && -x "$JAVA_HOME/bin/javac" && "$(java_major "$JAVA_HOME")" -ge 22 ]]; then
        jdk=$JAVA_HOME
    else
        for d in /usr/lib/jvm/*/; do
            d=${d%/}
            [[ -x "$d/bin/javac" ]] || continue
            v=$(java_major "$d")
            [[ -n "$v" && "$v" -ge 22 && "$v" -gt "$best" ]] && { best=$v; jdk=$d; }
        done
    fi
    if [[ -z "$jdk" ]]; then
        local arch
        case "$(uname -m)" in aarch64|arm64) arch=aarch64 ;; *) arch=x64 ;; esac
        {
            echo "roofline: no JDK 22+ found (JAVA_HOME=${JAVA_HOME:-unset}, /usr/lib/jvm/*). Install Temurin 25 and point JAVA_HOME at it:"
            echo "  curl -fL https://api.adoptium.net/v3/binary/latest/25/ga/linux/$arch/jdk/hotspot/normal/eclipse -o jdk25.tar.gz"
            echo "  mkdir -p ~/jdk25 && tar -xzf jdk25.tar.gz -C ~/jdk25 --strip-components=1 && export JAVA_HOME=~/jdk25"
        } >&2
        return 1
    fi
    export JAVA_HOME=$jdk
    export PATH="$JAVA_HOME/bin:$PATH"
}
